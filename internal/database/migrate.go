package database

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log"
	"net/url"
	"strings"

	"github.com/gocommerce/shop/migrations"
	"github.com/jackc/pgx/v5"
	"github.com/pressly/goose/v3"
)

// Migrate runs a goose command ("up", "down", "status") on the database at url.
// Output of "status" goes to out.
func Migrate(ctx context.Context, url, command string, out io.Writer) error {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return fmt.Errorf("database.migrate: %w", err)
	}
	defer db.Close()
	provider, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS)
	if err != nil {
		return fmt.Errorf("database.migrate: %w", err)
	}
	switch command {
	case "up":
		_, err = provider.Up(ctx)
	case "down":
		_, err = provider.Down(ctx)
	case "status":
		var st []*goose.MigrationStatus
		st, err = provider.Status(ctx)
		for _, s := range st {
			applied := "pending"
			if s.State == goose.StateApplied {
				applied = "applied " + s.AppliedAt.UTC().Format("2006-01-02 15:04:05")
			}
			fmt.Fprintf(out, "%-32s %s\n", s.Source.Path, applied)
		}
	default:
		return fmt.Errorf("database.migrate: unknown command %q (want up, down or status)", command)
	}
	if err != nil {
		return fmt.Errorf("database.migrate %s: %w", command, err)
	}
	return nil
}

// EnsureDatabase creates the database named in url when it does not exist,
// connecting to the server's "postgres" database to do so.
func EnsureDatabase(ctx context.Context, dbURL string) (created bool, err error) {
	u, err := url.Parse(dbURL)
	if err != nil {
		return false, fmt.Errorf("database.ensure: %w", err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	if name == "" {
		return false, fmt.Errorf("database.ensure: DATABASE_URL names no database")
	}
	admin := *u
	admin.Path = "/postgres"
	conn, err := pgx.Connect(ctx, admin.String())
	if err != nil {
		return false, fmt.Errorf("database.ensure: %w", err)
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return false, fmt.Errorf("database.ensure: %w", err)
	}
	if exists {
		return false, nil
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return false, fmt.Errorf("database.ensure: %w", err)
	}
	return true, nil
}

func init() {
	// goose's package logger would print every applied file; keep start-up quiet.
	goose.SetLogger(log.New(io.Discard, "", 0))
}

// WithStoreState returns dbURL carrying state (STORE_STATE) as the session
// setting shop.store_state, which migration 00032 reads to place the
// default stock location in the store's state.
func WithStoreState(dbURL, state string) string {
	u, err := url.Parse(dbURL)
	if err != nil || state == "" {
		return dbURL
	}
	q := u.Query()
	q.Set("shop.store_state", state)
	u.RawQuery = strings.ReplaceAll(q.Encode(), "+", "%20")
	return u.String()
}
