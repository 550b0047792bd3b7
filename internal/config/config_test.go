package config

import (
	"strings"
	"testing"
)

func TestInvalidValuesNameTheVariable(t *testing.T) {
	tests := []struct {
		name, key, value, wantIn string
	}{
		{"bad port", "PORT", "99999", "PORT"},
		{"non-numeric port", "PORT", "http", "PORT"},
		{"bad duration", "ADMIN_ACCESS_TOKEN_EXPIRES_IN", "soon", "ADMIN_ACCESS_TOKEN_EXPIRES_IN"},
		{"bad env", "APP_ENV", "staging", "APP_ENV"},
		{"bad database url", "DATABASE_URL", "mysql://x", "DATABASE_URL"},
		{"bad proxy", "TRUSTED_PROXIES", "10.0.0.0/8,not-an-ip", "TRUSTED_PROXIES"},
		{"bad provider", "PAYMENT_PROVIDER", "paypal", "PAYMENT_PROVIDER"},
		{"bad currency", "STORE_CURRENCY", "rupees", "STORE_CURRENCY"},
		{"unknown time zone", "STORE_TIMEZONE", "Asia/Bangalore", "STORE_TIMEZONE"},
		{"razorpay without keys", "PAYMENT_PROVIDER", "razorpay", "RAZORPAY_KEY_ID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("APP_ENV", Development)
			t.Setenv(tt.key, tt.value)
			_, err := Load("")
			if err == nil || !strings.Contains(err.Error(), tt.wantIn) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line naming %s", err, tt.wantIn)
			}
		})
	}
}

func TestProductionRefusesMissingOrWeakSecrets(t *testing.T) {
	strong := strings.Repeat("a", 32)
	tests := []struct {
		name        string
		admin, cust string
		wantInError string
	}{
		{"missing admin secret", "", strong + "b", "ADMIN_JWT_SECRET"},
		{"short admin secret", "short", strong + "b", "ADMIN_JWT_SECRET"},
		{"missing customer secret", strong, "", "CUSTOMER_JWT_SECRET"},
		{"same secret twice", strong, strong, "CUSTOMER_JWT_SECRET"},
		{"dev secret in production", devAdminSecret, strong, "ADMIN_JWT_SECRET"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("APP_ENV", "production")
			t.Setenv("ADMIN_JWT_SECRET", tt.admin)
			t.Setenv("CUSTOMER_JWT_SECRET", tt.cust)
			_, err := Load("")
			if err == nil || !strings.Contains(err.Error(), tt.wantInError) {
				t.Fatalf("err = %v, want it to name %s", err, tt.wantInError)
			}
		})
	}
	t.Run("strong secrets start", func(t *testing.T) {
		t.Setenv("APP_ENV", "production")
		t.Setenv("ADMIN_JWT_SECRET", strong)
		t.Setenv("CUSTOMER_JWT_SECRET", strong+"b")
		cfg, err := Load("")
		if err != nil || cfg.IsDev() || !cfg.CookieSecure {
			t.Fatalf("cfg %+v err %v", cfg, err)
		}
	})
}

func TestDevelopmentDefaults(t *testing.T) {
	cfg, err := Load(Development)
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.IsDev() || cfg.CookieSecure || cfg.GatewayWebhookSecret == "" || cfg.Port != 8080 {
		t.Fatalf("dev defaults: %+v", cfg)
	}
	if cfg.PublicURL != "http://localhost:8080" {
		t.Fatalf("dev PUBLIC_URL %q", cfg.PublicURL)
	}
	t.Setenv("PORT", "18080")
	if cfg, err := Load(Development); err != nil || cfg.PublicURL != "http://localhost:18080" {
		t.Fatalf("dev PUBLIC_URL on another port: %v %v", cfg, err)
	}
	if red := cfg.Redacted(); red["adminJwtSecret"] != "***" {
		t.Fatalf("secret not masked: %v", red)
	}
}

func TestTracingIsOnlyOnWithAnExporter(t *testing.T) {
	for _, tt := range []struct {
		name string
		tr   Tracing
		on   bool
	}{
		{"nothing set", Tracing{}, false},
		{"service name alone", Tracing{ServiceName: "shop"}, false},
		{"endpoint", Tracing{Endpoint: "http://collector:4318"}, true},
		{"traces endpoint", Tracing{TracesEndpoint: "http://collector:4318/v1/traces"}, true},
		{"console exporter", Tracing{TracesExporter: "console"}, true},
		{"exporter none", Tracing{Endpoint: "http://collector:4318", TracesExporter: "none"}, false},
		{"sdk disabled", Tracing{Endpoint: "http://collector:4318", SDKDisabled: true}, false},
	} {
		if got := tt.tr.Enabled(); got != tt.on {
			t.Errorf("%s: Enabled() = %v, want %v", tt.name, got, tt.on)
		}
	}
	t.Setenv("APP_ENV", Development)
	t.Setenv("OTEL_TRACES_SAMPLER", "sometimes")
	if _, err := Load(""); err == nil || !strings.Contains(err.Error(), "OTEL_TRACES_SAMPLER") {
		t.Fatalf("a bad sampler: %v", err)
	}
}

// API_MEMORY_LIMIT_MIB gives the runtime its limit less what it does not
// count, and the page memo a third; 0 is no limit and the 64 MiB memo; a
// budget too small for the memo is refused naming the variable.
func TestAPIMemoryBudget(t *testing.T) {
	t.Setenv("APP_ENV", "development")
	for _, tc := range []struct {
		set         string
		limit, memo int64
	}{{"", 116, 48}, {"0", 0, 64}, {"384", 356, 128}} {
		if tc.set != "" {
			t.Setenv("API_MEMORY_LIMIT_MIB", tc.set)
		}
		cfg, err := Load("")
		if err != nil {
			t.Fatal(err)
		}
		if got, memo := cfg.GoMemoryLimit()>>20, int64(cfg.PageMemoBytes()>>20); got != tc.limit || memo != tc.memo {
			t.Fatalf("API_MEMORY_LIMIT_MIB=%q: Go limit %d MiB, memo %d MiB; want %d and %d", tc.set, got, memo, tc.limit, tc.memo)
		}
	}
	t.Setenv("API_MEMORY_LIMIT_MIB", "64")
	if _, err := Load(""); err == nil || !strings.Contains(err.Error(), "API_MEMORY_LIMIT_MIB") {
		t.Fatalf("API_MEMORY_LIMIT_MIB=64: %v", err)
	}
}

// The DSC's password without its file is refused, naming DSC_P12_FILE;
// the password never reaches the start-up log.
func TestDSCPasswordNeedsItsFile(t *testing.T) {
	t.Setenv("DSC_P12_PASSWORD", "s3cret")
	if _, err := Load(Development); err == nil || !strings.Contains(err.Error(), "DSC_P12_FILE") {
		t.Fatalf("a password without a file: %v", err)
	}
	t.Setenv("DSC_P12_FILE", "/run/secrets/dsc.p12")
	cfg, err := Load(Development)
	if err != nil {
		t.Fatal(err)
	}
	if red := cfg.Redacted(); red["dscP12Password"] != "***" || red["dscP12File"] != "/run/secrets/dsc.p12" {
		t.Fatalf("redacted: %v", red)
	}
}

// The e-way bill API's URL must be https with a key to encrypt its login
// (its own or the e-invoice one); its password is redacted.
func TestEwayBillAPINeedsHTTPSAndItsKey(t *testing.T) {
	for k, v := range map[string]string{"GST_PROVIDER": "nic", "GST_API_URL": "https://einv.example", "GST_API_USER": "u",
		"GST_API_PASSWORD": "p", "GST_CLIENT_ID": "c", "GST_CLIENT_SECRET": "s", "GST_IRP_PUBLIC_KEY": "/run/secrets/irp.pem"} {
		t.Setenv(k, v)
	}
	t.Setenv("GST_EWB_API_URL", "http://ewb.example/ewaybillapi/v1.03")
	if _, err := Load(Development); err == nil || !strings.Contains(err.Error(), "GST_EWB_API_URL") {
		t.Fatalf("an http e-way bill API: %v", err)
	}
	t.Setenv("GST_EWB_API_URL", "https://ewb.example/ewaybillapi/v1.03")
	if _, err := Load(Development); err == nil || !strings.Contains(err.Error(), "GST_EWB_PUBLIC_KEY") {
		t.Fatalf("no key for its login: %v", err)
	}
	t.Setenv("GST_EWB_PUBLIC_KEY", "/run/secrets/ewb.pem")
	t.Setenv("GST_EWB_PASSWORD", "ewb-s3cret")
	cfg, err := Load(Development)
	if err != nil {
		t.Fatal(err)
	}
	if red := cfg.Redacted(); red["gstEwbPassword"] != "***" {
		t.Fatalf("redacted: %v", red)
	}
}
