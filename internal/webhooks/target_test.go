package webhooks

import (
	"context"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
)

func TestBlocked(t *testing.T) {
	blocked := []string{"127.0.0.1", "127.9.9.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1",
		"169.254.169.254", "169.254.0.1", "0.0.0.0", "0.1.2.3", "100.64.0.1", "224.0.0.1", "255.255.255.255",
		"::1", "::", "fe80::1", "fc00::1", "fd00:ec2::254", "::ffff:127.0.0.1", "::ffff:169.254.169.254",
		"64:ff9b::7f00:1", "2002:7f00:1::", "ff02::1", "2001:db8::1"}
	for _, s := range blocked {
		if !Blocked(netip.MustParseAddr(s)) {
			t.Errorf("%s is allowed", s)
		}
	}
	for _, s := range []string{"93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700::1111", "64:ff9b::808:808"} {
		if Blocked(netip.MustParseAddr(s)) {
			t.Errorf("%s is blocked", s)
		}
	}
}

func TestCheckURL(t *testing.T) {
	strict := Guard{}
	tests := []struct{ url, issue string }{
		{"https://8.8.8.8/hooks", ""},
		{"http://93.184.216.34:8080/x?y=1", ""},
		{"ftp://8.8.8.8/x", "must be an absolute http or https URL"},
		{"/relative", "must be an absolute http or https URL"},
		{"https://", "must be an absolute http or https URL"},
		{"https://user:pw@8.8.8.8/", "must not contain credentials"},
		{"http://127.0.0.1:9000/", "private"},
		{"http://[::1]/", "private"},
		{"http://169.254.169.254/latest/meta-data/", "private"},
		{"http://10.0.0.5/", "private"},
		{"http://localhost:8080/", "private"},
		{"http://does-not-exist.invalid/", "host does not resolve"},
		{"https://" + strings.Repeat("a", 2050) + ".com/", "at most 2048"},
	}
	for _, tt := range tests {
		err := strict.CheckURL(context.Background(), tt.url)
		if tt.issue == "" {
			if err != nil {
				t.Errorf("%s refused: %v", tt.url, err)
			}
			continue
		}
		e, ok := apperr.As(err)
		if !ok || e.Details["field"] != "url" || !strings.Contains(e.Details["issue"].(string), tt.issue) {
			t.Errorf("%s: %v, want an issue with %q", tt.url[:min(len(tt.url), 40)], err, tt.issue)
		}
	}
	if err := (Guard{AllowPrivate: true}).CheckURL(context.Background(), "http://127.0.0.1:9000/"); err != nil {
		t.Fatalf("allowed private target refused: %v", err)
	}
}

func TestDialControl(t *testing.T) {
	if (Guard{}).DialControl("tcp", "127.0.0.1:80", nil) != ErrBlockedTarget {
		t.Fatal("loopback dial allowed")
	}
	if (Guard{}).DialControl("tcp", "8.8.8.8:443", nil) != nil {
		t.Fatal("public dial refused")
	}
	if (Guard{AllowPrivate: true}).DialControl("tcp", "127.0.0.1:80", nil) != nil {
		t.Fatal("allowed private dial refused")
	}
}

// The Standard Webhooks reference test vector.
func TestSignatureVector(t *testing.T) {
	key, err := SecretKey("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err != nil {
		t.Fatal(err)
	}
	got := Signature(key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, []byte(`{"test": 2432232314}`))
	if got != "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" {
		t.Fatalf("signature %s", got)
	}
}

func TestSecrets(t *testing.T) {
	s := NewSecret()
	key, err := SecretKey(s)
	if err != nil || len(key) != 32 || !strings.HasPrefix(s, "whsec_") {
		t.Fatalf("new secret %q: %d bytes, %v", s, len(key), err)
	}
	if NewSecret() == s {
		t.Fatal("two equal secrets")
	}
	for _, bad := range []string{"", "secret", "whsec_", "whsec_!!!", "whsec_c2hvcnQ=", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"} {
		if _, err := SecretKey(bad); err == nil {
			t.Errorf("secret %q accepted", bad)
		}
	}
}

func TestRetryPolicy(t *testing.T) {
	p := RetryPolicy{Base: time.Minute, Cap: 8 * time.Hour, MaxAttempts: 12}
	want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute}
	for i, w := range want {
		if got := p.Delay(i + 1); got != w {
			t.Fatalf("delay after attempt %d: %s, want %s", i+1, got, w)
		}
	}
	var total time.Duration
	for n := 1; n < p.MaxAttempts; n++ {
		total += p.Delay(n)
	}
	if total < 23*time.Hour || total > 26*time.Hour {
		t.Fatalf("last attempt %s after the first, want about 24 h", total)
	}
	jittered := DefaultRetry
	for range 100 {
		if d := jittered.Delay(3); d < 192*time.Second || d > 288*time.Second {
			t.Fatalf("jittered delay %s outside 4 min ± 20 %%", d)
		}
	}
}
