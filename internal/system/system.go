// Package system answers the back office's operational questions: is the
// service healthy, what became of a queued job, and clears the application
// cache on request.
package system

import (
	"time"

	"github.com/gocommerce/shop/internal/cache"
	"github.com/gocommerce/shop/internal/config"
	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"gorm.io/gorm"
)

// Service reports on the running system.
type Service struct {
	db        *gorm.DB
	redis     *redis.Client
	inspector *asynq.Inspector
	cache     *cache.Cache
	cfg       *config.Config
	started   time.Time
	// taxIdentity answers the health report's taxDocuments (UseTaxIdentity).
	taxIdentity TaxIdentity
}

// New returns the service. c is the application cache that ClearCache
// clears; started is when the process started.
func New(db *gorm.DB, rdb *redis.Client, inspector *asynq.Inspector, c *cache.Cache, cfg *config.Config, started time.Time) *Service {
	return &Service{db: db, redis: rdb, inspector: inspector, cache: c, cfg: cfg, started: started}
}
