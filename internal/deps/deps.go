// Package deps opens what every process shares: the database pool, Redis, the
// task queue client and the logger, built once from the configuration.
package deps

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/database"
	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"gorm.io/gorm"
)

func init() {
	// go-redis prints dial failures to stderr itself; readiness and the
	// callers' errors already report them.
	redis.SetLogger(quietRedis{})
}

type quietRedis struct{}

func (quietRedis) Printf(context.Context, string, ...any) {}

// Deps is the set of connections a process works with.
type Deps struct {
	Config *config.Config
	Log    *slog.Logger
	DB     *gorm.DB
	// Redis serves the cache, rate limits and webhook de-duplication.
	Redis *redis.Client
	// Queue enqueues asynq tasks; Inspector reads their state.
	Queue     *asynq.Client
	Inspector *asynq.Inspector
	// RedisOpt lets asynq servers and the dashboard open their own connections.
	RedisOpt asynq.RedisConnOpt
	// Started is when the process started, for uptime reports.
	Started time.Time
}

// Open connects to Postgres and Redis. Redis being down does not fail Open:
// the API must start and report not-ready, then recover when Redis returns.
func Open(ctx context.Context, cfg *config.Config, log *slog.Logger) (*Deps, error) {
	db, err := database.Open(ctx, cfg.DatabaseURL, database.Options{MaxConns: cfg.DBMaxConns, Logger: log})
	if err != nil {
		return nil, err
	}
	ropt, err := redis.ParseURL(cfg.RedisURL)
	if err != nil {
		database.Close(db)
		return nil, fmt.Errorf("deps: REDIS_URL: %w", err)
	}
	// Short timeouts: a dead Redis must turn into a fast 503, not a hung request.
	ropt.DialTimeout = 2 * time.Second
	ropt.ReadTimeout = 2 * time.Second
	ropt.WriteTimeout = 2 * time.Second
	ropt.PoolTimeout = 3 * time.Second
	ropt.MaxRetries = 1
	rdb := redis.NewClient(ropt)
	aopt, err := asynq.ParseRedisURI(cfg.RedisURL)
	if err != nil {
		database.Close(db)
		rdb.Close()
		return nil, fmt.Errorf("deps: REDIS_URL: %w", err)
	}
	return &Deps{
		Config:    cfg,
		Log:       log,
		DB:        db,
		Redis:     rdb,
		Queue:     asynq.NewClientFromRedisClient(rdb),
		Inspector: asynq.NewInspectorFromRedisClient(rdb),
		RedisOpt:  aopt,
		Started:   time.Now().UTC(),
	}, nil
}

// Close releases every connection.
func (d *Deps) Close() {
	// The asynq client and inspector share d.Redis; closing it closes them.
	d.Redis.Close()
	database.Close(d.DB)
}
