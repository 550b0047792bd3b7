package identity

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
)

var testKey = []byte("test-key-of-at-least-thirty-two-bytes!!")

func TestParseAccessToken(t *testing.T) {
	adminID, sid, now := uuid.New(), uuid.New(), time.Now()
	good, err := signAccessToken(testKey, adminID, "a@example.com", "staff", sid, now, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseAccessToken(testKey, good)
	if err != nil || c.Subject != adminID.String() || c.SessionID != sid.String() || c.Role != "staff" || c.Type != "admin" || c.IssuedAt == nil {
		t.Fatalf("valid token: %+v, %v", c, err)
	}
	claims := func(mod func(jwt.MapClaims)) jwt.MapClaims {
		m := jwt.MapClaims{"sub": adminID.String(), "sessionId": sid.String(), "type": "admin", "iat": now.Unix(), "exp": now.Add(time.Minute).Unix()}
		if mod != nil {
			mod(m)
		}
		return m
	}
	sign := func(m jwt.SigningMethod, key any, c jwt.MapClaims) string {
		s, err := jwt.NewWithClaims(m, c).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	bad := map[string]string{
		"alg none":      sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claims(nil)),
		"HS512":         sign(jwt.SigningMethodHS512, testKey, claims(nil)),
		"wrong key":     sign(jwt.SigningMethodHS256, []byte("some-other-key-of-thirty-two-bytes!!"), claims(nil)),
		"expired":       sign(jwt.SigningMethodHS256, testKey, claims(func(c jwt.MapClaims) { c["exp"] = now.Add(-time.Second).Unix() })),
		"no expiry":     sign(jwt.SigningMethodHS256, testKey, claims(func(c jwt.MapClaims) { delete(c, "exp") })),
		"customer type": sign(jwt.SigningMethodHS256, testKey, claims(func(c jwt.MapClaims) { c["type"] = "customer" })),
		"future iat":    sign(jwt.SigningMethodHS256, testKey, claims(func(c jwt.MapClaims) { c["iat"] = now.Add(time.Hour).Unix() })),
		"truncated":     good[:len(good)-3],
		"empty":         "",
	}
	for name, tok := range bad {
		if _, err := parseAccessToken(testKey, tok); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestRefreshTokenFormat(t *testing.T) {
	sid := uuid.New()
	tok, secret, err := newRefreshToken(sid)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tok, sid.String()+".") || len(secret) != 43 {
		t.Fatalf("token %q secret %q", tok, secret)
	}
	got, gotSecret, ok := splitRefreshToken(tok)
	if !ok || got != sid || gotSecret != secret {
		t.Fatal("round trip failed")
	}
	for _, bad := range []string{"", "abc", sid.String(), sid.String() + ".", "nope." + secret, sid.String() + "." + strings.Repeat("a", 101)} {
		if _, _, ok := splitRefreshToken(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestMatchTOTPStep(t *testing.T) {
	const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
	now := time.Unix(1_700_000_010, 0)
	step := now.Unix() / 30
	for offset := int64(-2); offset <= 2; offset++ {
		code, err := CodeAt(secret, time.Unix((step+offset)*30, 0))
		if err != nil {
			t.Fatal(err)
		}
		got := matchTOTPStep(secret, code, now)
		if want := step + offset; offset >= -1 && offset <= 1 && got != want {
			t.Errorf("offset %d: step %d, want %d", offset, got, want)
		} else if (offset < -1 || offset > 1) && got != -1 {
			t.Errorf("offset %d outside the skew accepted", offset)
		}
	}
	if matchTOTPStep(secret, "12345", now) != -1 || matchTOTPStep("not base32!", "123456", now) != -1 {
		t.Error("malformed input matched")
	}
}

func TestBackupCodes(t *testing.T) {
	codes, err := newBackupCodes()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range codes {
		if len(c) != 19 || strings.Count(c, "-") != 3 || isTOTPCode(c) || seen[c] {
			t.Fatalf("code %q", c)
		}
		seen[c] = true
	}
	if len(codes) != BackupCodeCount {
		t.Fatalf("%d codes", len(codes))
	}
	id := uuid.New()
	h := backupCodeHash(id, codes[0])
	for _, variant := range []string{strings.ToUpper(codes[0]), strings.ReplaceAll(codes[0], "-", ""), " " + strings.ReplaceAll(codes[0], "-", " ") + " "} {
		if backupCodeHash(id, variant) != h {
			t.Errorf("%q hashes differently", variant)
		}
	}
	if backupCodeHash(uuid.New(), codes[0]) == h {
		t.Error("the hash does not depend on the admin")
	}
}

func TestClientInfoNormalized(t *testing.T) {
	c := ClientInfo{UserAgent: strings.Repeat("é", 400) + "\x00\xff", DeviceID: "  "}.normalized()
	if c.DeviceID == "" || !utf8.ValidString(c.UserAgent) || len(c.UserAgent) > maxUserAgent || strings.ContainsRune(c.UserAgent, 0) || !strings.HasPrefix(c.UserAgent, "é") {
		t.Fatalf("%+v", c)
	}
	if got := truncate("abc\x00\xffdef", 100); got != "abcdef" {
		t.Fatalf("truncate %q", got)
	}
}
