package config

import (
	"strings"
	"testing"
)

// A one-off command signs no token, so it starts in production without the
// token secrets; a serving process does not, and the error says what to set.
func TestToolingNeedsNoTokenSecrets(t *testing.T) {
	t.Setenv("APP_ENV", Production)
	t.Setenv("ADMIN_JWT_SECRET", "")
	t.Setenv("CUSTOMER_JWT_SECRET", "")
	if _, err := LoadFor("", Tooling); err != nil {
		t.Fatalf("tooling without token secrets: %v", err)
	}
	_, err := LoadFor("", Serving)
	if err == nil || !strings.Contains(err.Error(), "ADMIN_JWT_SECRET must be set") || !strings.Contains(err.Error(), "openssl rand") {
		t.Fatalf("serving without secrets: %v, want it to say how to set ADMIN_JWT_SECRET", err)
	}
}

// A secret that is set is checked whatever the purpose: a weak or
// development one never passes in production.
func TestToolingStillChecksSecretsThatAreSet(t *testing.T) {
	for _, tt := range []struct{ name, key, value string }{
		{"short admin secret", "ADMIN_JWT_SECRET", "short"},
		{"short customer secret", "CUSTOMER_JWT_SECRET", "short"},
		{"development gateway secret", "GATEWAY_WEBHOOK_SECRET", devGatewaySecret},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("APP_ENV", Production)
			t.Setenv(tt.key, tt.value)
			if _, err := LoadFor("", Tooling); err == nil || !strings.Contains(err.Error(), tt.key) {
				t.Fatalf("err = %v, want it to name %s", err, tt.key)
			}
		})
	}
}

func TestCacheRedisDefaultsToRedisURL(t *testing.T) {
	t.Setenv("REDIS_URL", "redis://queues:6379/0")
	cfg, err := Load(Development)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.CacheRedis() != "redis://queues:6379/0" {
		t.Fatalf("cache Redis %q, want REDIS_URL's", cfg.CacheRedis())
	}
	t.Setenv("CACHE_REDIS_URL", "redis://cache:6379/0")
	if cfg, err = Load(Development); err != nil || cfg.CacheRedis() != "redis://cache:6379/0" {
		t.Fatalf("cache Redis %v (%v), want CACHE_REDIS_URL's", cfg, err)
	}
	t.Setenv("CACHE_REDIS_URL", "memcached://cache:11211")
	if _, err := Load(Development); err == nil || !strings.Contains(err.Error(), "CACHE_REDIS_URL") {
		t.Fatalf("a bad CACHE_REDIS_URL: %v", err)
	}
}
