package security_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/golang-jwt/jwt/v5"
	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"
)

// touchedColumns are written by requests that are otherwise refused or
// read-only (a session's last use); the fingerprint leaves them out.
var touchedColumns = []string{"last_used_at"}

// tableState is a table's row count and a digest of its content.
type tableState struct {
	Rows   int64
	Digest string
}

// snapshot fingerprints tables, every row and every column but
// touchedColumns, to assert that a refused request changed nothing: an
// UPDATE shows as well as an INSERT or a DELETE.
func snapshot(t *testing.T, db *gorm.DB, tables ...string) map[string]tableState {
	t.Helper()
	out := map[string]tableState{}
	for _, tbl := range tables {
		out[tbl] = fingerprint(t, db, tbl)
	}
	return out
}

func fingerprint(t *testing.T, db *gorm.DB, table string) tableState {
	t.Helper()
	row := "to_jsonb(t)"
	for _, c := range touchedColumns {
		row += " - '" + c + "'"
	}
	var st tableState
	err := db.Raw(`SELECT count(*) AS rows, coalesce(md5(string_agg(r, E'\n' ORDER BY r)), '') AS digest
		FROM (SELECT (` + row + `)::text AS r FROM ` + pgx.Identifier{table}.Sanitize() + ` t) s`).Scan(&st).Error
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// unchanged fails t unless every table of before has the same content.
func unchanged(t *testing.T, db *gorm.DB, before map[string]tableState) {
	t.Helper()
	for tbl, was := range before {
		if now := fingerprint(t, db, tbl); now != was {
			t.Fatalf("%s changed: %d rows (%s) → %d rows (%s)", tbl, was.Rows, was.Digest, now.Rows, now.Digest)
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
