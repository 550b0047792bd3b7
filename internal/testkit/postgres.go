// Package testkit gives tests real infrastructure: a fresh Postgres database
// per test (cloned from a migrated template), an isolated Redis database
// index, an in-process API and worker on a real port, and private Postgres
// and Redis servers for tests that stop them.
package testkit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/migrations"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"
)

// ServerURL is the Postgres server tests use: TEST_DATABASE_URL, else
// DATABASE_URL, else the local default. Its database part is ignored.
func ServerURL() string {
	for _, k := range []string{"TEST_DATABASE_URL", "DATABASE_URL"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

// withDatabase returns serverURL pointing at database name.
func withDatabase(serverURL, name string) string {
	u, err := url.Parse(serverURL)
	if err != nil {
		panic(err)
	}
	u.Path = "/" + name
	return u.String()
}

// MustDB creates a fresh, migrated database for tb and drops it when tb ends.
// It returns the GORM handle and the database's URL.
func MustDB(tb testing.TB) (*gorm.DB, string) {
	tb.Helper()
	dbURL := MustDatabaseURL(tb)
	db, err := database.Open(context.Background(), dbURL, database.Options{MaxConns: 20})
	if err != nil {
		tb.Fatalf("testkit: open %s: %v", dbURL, err)
	}
	tb.Cleanup(func() { database.Close(db) })
	return db, dbURL
}

// MustDatabaseURL creates a fresh, migrated database and returns its URL; it
// is dropped when tb ends.
func MustDatabaseURL(tb testing.TB) string {
	tb.Helper()
	ctx := context.Background()
	server := ServerURL()
	tmpl, err := ensureTemplate(ctx, server)
	if err != nil {
		tb.Fatalf("testkit: template: %v", err)
	}
	name := fmt.Sprintf("shop_test_%d_%s", time.Now().Unix(), strings.ReplaceAll(uuid.NewString()[:8], "-", ""))
	conn, err := pgx.Connect(ctx, withDatabase(server, "postgres"))
	if err != nil {
		tb.Fatalf("testkit: connect: %v", err)
	}
	defer conn.Close(ctx)
	// Serialized: two CREATE DATABASE ... TEMPLATE at once can fail with
	// "source database is being accessed by other users".
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock(727001)"); err != nil {
		tb.Fatalf("testkit: lock: %v", err)
	}
	_, err = conn.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, tmpl))
	conn.Exec(ctx, "SELECT pg_advisory_unlock(727001)")
	if err != nil {
		tb.Fatalf("testkit: create database: %v", err)
	}
	tb.Cleanup(func() { dropDatabase(server, name) })
	return withDatabase(server, name)
}

func dropDatabase(server, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, withDatabase(server, "postgres"))
	if err != nil {
		return
	}
	defer conn.Close(ctx)
	conn.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name))
}

// ensureTemplate builds, once per migration set, a template database with
// every migration applied, and returns its name. The name carries a hash of
// the migration files, so a changed migration builds a new template.
func ensureTemplate(ctx context.Context, server string) (string, error) {
	name := "shop_tmpl_" + migrationsHash()
	conn, err := pgx.Connect(ctx, withDatabase(server, "postgres"))
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock(727002)"); err != nil {
		return "", err
	}
	defer conn.Exec(ctx, "SELECT pg_advisory_unlock(727002)")
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	dropStale(ctx, conn)
	building := name + "_build"
	conn.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", building))
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+building); err != nil {
		return "", err
	}
	if err := database.Migrate(ctx, withDatabase(server, building), "up", nil); err != nil {
		return "", err
	}
	// Renamed only once complete, so a crash never leaves a half-built template.
	if _, err := conn.Exec(ctx, fmt.Sprintf("ALTER DATABASE %s RENAME TO %s", building, name)); err != nil {
		return "", err
	}
	// The build time lets dropStale spare templates that another test run,
	// on another migration set, may still be cloning.
	if _, err := conn.Exec(ctx, fmt.Sprintf("COMMENT ON DATABASE %s IS '%d'", name, time.Now().Unix())); err != nil {
		return "", err
	}
	return name, nil
}

// dropStale removes templates and test databases more than two hours old:
// those of older migration sets and those left behind by killed test runs.
// Younger ones may belong to a test run still going on another checkout.
func dropStale(ctx context.Context, conn *pgx.Conn) {
	rows, err := conn.Query(ctx, `SELECT d.datname, COALESCE(shobj_description(d.oid, 'pg_database'), '')
		FROM pg_database d WHERE d.datname LIKE 'shop_tmpl_%' OR d.datname LIKE 'shop_test_%'`)
	if err != nil {
		return
	}
	type db struct{ name, comment string }
	var dbs []db
	for rows.Next() {
		var d db
		if rows.Scan(&d.name, &d.comment) == nil {
			dbs = append(dbs, d)
		}
	}
	rows.Close()
	cutoff := time.Now().Add(-2 * time.Hour).Unix()
	for _, d := range dbs {
		born := d.comment // templates carry their build time as a comment
		if strings.HasPrefix(d.name, "shop_test_") {
			if parts := strings.Split(d.name, "_"); len(parts) >= 3 {
				born = parts[2]
			}
		}
		if ts, err := strconv.ParseInt(born, 10, 64); err != nil || ts > cutoff {
			continue
		}
		conn.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", pgx.Identifier{d.name}.Sanitize()))
	}
}

func migrationsHash() string {
	h := sha256.New()
	fs.WalkDir(migrations.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := migrations.FS.ReadFile(path)
		h.Write([]byte(path))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:12]
}
