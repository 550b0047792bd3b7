package security_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/golang-jwt/jwt/v5"
	"gorm.io/gorm"
)

// snapshot counts rows of tables, to assert that a refused request changed
// nothing.
func snapshot(t *testing.T, db *gorm.DB, tables ...string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, tbl := range tables {
		var n int64
		if err := db.Table(tbl).Count(&n).Error; err != nil {
			t.Fatal(err)
		}
		out[tbl] = n
	}
	return out
}

func unchanged(t *testing.T, db *gorm.DB, before map[string]int64) {
	t.Helper()
	for tbl, n := range before {
		var now int64
		db.Table(tbl).Count(&now)
		if now != n {
			t.Fatalf("%s went from %d to %d rows", tbl, n, now)
		}
	}
}

// forge returns JWTs a client could forge from a valid token's claims.
func forge(t *testing.T, valid string, secret []byte) map[string]string {
	t.Helper()
	parts := strings.Split(valid, ".")
	var claims map[string]any
	raw, _ := base64.RawURLEncoding.DecodeString(parts[1])
	json.Unmarshal(raw, &claims)

	sign := func(m jwt.SigningMethod, key any, c jwt.MapClaims) string {
		s, err := jwt.NewWithClaims(m, c).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	copyClaims := func(edit func(jwt.MapClaims)) jwt.MapClaims {
		c := jwt.MapClaims{}
		for k, v := range claims {
			c[k] = v
		}
		edit(c)
		return c
	}
	none := sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, copyClaims(func(jwt.MapClaims) {}))
	payload := parts[1]
	tamperedClaims := copyClaims(func(c jwt.MapClaims) { c["sub"] = "00000000-0000-4000-8000-000000000000" })
	tb, _ := json.Marshal(tamperedClaims)
	return map[string]string{
		"alg none":            none,
		"alg none, no dot":    strings.TrimSuffix(none, "."),
		"HS512 same key":      sign(jwt.SigningMethodHS512, secret, copyClaims(func(jwt.MapClaims) {})),
		"wrong key":           sign(jwt.SigningMethodHS256, []byte("another-secret-of-the-right-length-000"), copyClaims(func(jwt.MapClaims) {})),
		"expired":             sign(jwt.SigningMethodHS256, secret, copyClaims(func(c jwt.MapClaims) { c["exp"] = time.Now().Add(-time.Minute).Unix() })),
		"no expiry":           sign(jwt.SigningMethodHS256, secret, copyClaims(func(c jwt.MapClaims) { delete(c, "exp") })),
		"tampered payload":    parts[0] + "." + base64.RawURLEncoding.EncodeToString(tb) + "." + parts[2],
		"truncated signature": parts[0] + "." + payload + "." + parts[2][:len(parts[2])/2],
		"garbage":             "not.a.jwt",
	}
}

func mustApp(t *testing.T) *testkit.App { return testkit.MustApp(t) }
