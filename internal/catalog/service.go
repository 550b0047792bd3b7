// Package catalog manages what the shop sells and at what base price:
// products and their variants (with stock), categories, collections,
// customer groups, group price overrides and price lists.
//
// Every write runs in one transaction and, once committed, invalidates the
// "catalog" cache namespace that storefront product reads are served from.
// The effective price of a variant for a customer is pricing.Resolve; this
// package only stores the inputs it reads.
package catalog

import (
	"context"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/cache"
	"github.com/gocommerce/shop/tasks"
	"gorm.io/gorm"
)

// CacheNamespace is the cache namespace of storefront catalog reads. Every
// committed write that changes what a shopper sees bumps it.
const CacheNamespace = "catalog"

// Service is the catalog's business layer.
type Service struct {
	db    *gorm.DB
	cache *cache.Cache
	queue tasks.Enqueuer
	log   *slog.Logger
	// lowStockDefault is the low-stock threshold of variants without their own.
	lowStockDefault int
	// now is the clock that decides whether a rate change's date is past.
	now func() time.Time
}

// Options are the service's collaborators.
type Options struct {
	Cache *cache.Cache
	// Queue is nudged after commits that published outbox events.
	Queue tasks.Enqueuer
	Log   *slog.Logger
	// LowStockThreshold is the default threshold (LOW_STOCK_THRESHOLD).
	LowStockThreshold int
	// Now is the clock (default time.Now); tests inject one.
	Now func() time.Time
}

// New returns the service on db.
func New(db *gorm.DB, o Options) *Service {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{db: db, cache: o.Cache, queue: o.Queue, log: o.Log, lowStockDefault: o.LowStockThreshold, now: o.Now}
}

// tx runs fn in a transaction and, when it commits, invalidates the
// storefront catalog cache.
func (s *Service) tx(ctx context.Context, fn func(tx *gorm.DB) error) error {
	if err := s.db.WithContext(ctx).Transaction(fn); err != nil {
		return err
	}
	s.invalidate(ctx)
	return nil
}

// invalidate makes every cached catalog read stale. A failure only means
// stale reads until the TTL, so it is logged, not returned: the write is
// already committed.
func (s *Service) invalidate(ctx context.Context) {
	if s.cache == nil {
		return
	}
	if err := s.cache.Invalidate(ctx, CacheNamespace); err != nil {
		s.log.ErrorContext(ctx, "catalog cache not invalidated; storefront may serve stale data until the TTL", "err", err)
	}
}
