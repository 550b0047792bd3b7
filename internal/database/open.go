// Package database opens the Postgres connection pool, applies migrations and
// translates driver errors into apperr codes.
package database

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
	"gorm.io/plugin/dbresolver"
)

// Options tunes the pool.
type Options struct {
	MaxConns int
	// Logger receives slow-query warnings; nil disables them.
	Logger *slog.Logger
}

// Open connects to Postgres through pgx and returns a GORM handle with errors
// translated (duplicate key → gorm.ErrDuplicatedKey).
//
// Statements are prepared by pgx, which caches them per connection, inside
// transactions too. GORM's own PrepareStmt is off: through database/sql it
// re-prepared (parsed, planned, closed) every statement of every transaction
// on the transaction's connection, which doubled the database CPU of a cart
// update.
func Open(ctx context.Context, url string, opt Options) (*gorm.DB, error) {
	db, err := openPool(url, opt)
	if err != nil {
		return nil, err
	}
	sqlDB, _ := db.DB()
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := sqlDB.PingContext(pingCtx); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("database.open: ping: %w", err)
	}
	return db, nil
}

// OpenReplicas returns a read-only handle on the streaming replicas at urls
// (DATABASE_REPLICA_URLS), each query sent to one of them at random
// (gorm.io/plugin/dbresolver). Unlike Open it does not ping: a replica that
// is down at start-up must not keep the API from starting, and its reads
// answer 503 until it is back (docs/DECISIONS.md "Read replicas").
func OpenReplicas(urls []string, opt Options) (*gorm.DB, error) {
	if len(urls) == 0 {
		return nil, fmt.Errorf("database.open_replicas: no URL")
	}
	db, err := openPool(urls[0], opt)
	if err != nil {
		return nil, err
	}
	if len(urls) == 1 {
		return db, nil
	}
	replicas := make([]gorm.Dialector, len(urls))
	for i, u := range urls {
		if replicas[i], err = dialector(u, opt); err != nil {
			Close(db)
			return nil, err
		}
	}
	if err := db.Use(dbresolver.Register(dbresolver.Config{Replicas: replicas, Policy: dbresolver.RandomPolicy{}})); err != nil {
		Close(db)
		return nil, fmt.Errorf("database.open_replicas: %w", err)
	}
	return db, nil
}

// dialector is a GORM dialector over a pgx pool for url.
func dialector(url string, opt Options) (gorm.Dialector, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("database.open: %w", err)
	}
	sqlDB := stdlib.OpenDB(*cfg, stdlib.OptionAfterConnect(configureTypes))
	if opt.MaxConns <= 0 {
		opt.MaxConns = 10
	}
	sqlDB.SetMaxOpenConns(opt.MaxConns)
	sqlDB.SetMaxIdleConns(opt.MaxConns)
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	sqlDB.SetConnMaxLifetime(time.Hour)
	return sqlOnly{postgres.New(postgres.Config{Conn: sqlDB}).(*postgres.Dialector)}, nil
}

// openPool opens a GORM handle on url without touching the server.
func openPool(url string, opt Options) (*gorm.DB, error) {
	d, err := dialector(url, opt)
	if err != nil {
		return nil, err
	}
	gl := logger.Discard
	if opt.Logger != nil {
		gl = slowLog{opt.Logger}
	}
	db, err := gorm.Open(d, &gorm.Config{
		Logger:                 gl,
		PrepareStmt:            false,
		TranslateError:         true,
		SkipDefaultTransaction: true,
		NowFunc:                func() time.Time { return time.Now().UTC() },
	})
	if err != nil {
		if c, ok := d.(sqlOnly); ok {
			if sqlDB, ok := c.Conn.(interface{ Close() error }); ok {
				sqlDB.Close()
			}
		}
		return nil, fmt.Errorf("database.open: %w", err)
	}
	db.ClauseBuilders["LIMIT"] = literalLimit
	return db, nil
}

// Close closes the pool behind db.
func Close(db *gorm.DB) error {
	sqlDB, err := db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

// Ping checks the database answers within ctx.
func Ping(ctx context.Context, db *gorm.DB) error {
	sqlDB, err := db.DB()
	if err != nil {
		return err
	}
	return sqlDB.PingContext(ctx)
}

// configureTypes sets up the types of a new connection: timestamptz values
// read as UTC times, whatever the server's or the process's time zone (every
// time the service puts on the wire is then RFC 3339 in UTC; docs/DECISIONS.md,
// "HTTP conventions"), and uuids sent as bytes (registerUUID).
func configureTypes(_ context.Context, conn *pgx.Conn) error {
	conn.TypeMap().RegisterType(&pgtype.Type{Name: "timestamptz", OID: pgtype.TimestamptzOID,
		Codec: &pgtype.TimestamptzCodec{ScanLocation: time.UTC}})
	registerUUID(conn.TypeMap())
	return nil
}
