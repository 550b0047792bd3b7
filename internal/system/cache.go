package system

import (
	"context"
	"errors"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/cache"
)

// ClearCache deletes the application cache keys matching pattern (Redis
// glob relative to CACHE_PREFIX; empty means all) and returns how many went.
// Keys outside the cache namespace (queues, sessions, rate limits) cannot
// match. confirm must be true. Errors: VALIDATION_ERROR (confirm, pattern),
// SERVICE_UNAVAILABLE.
func (s *Service) ClearCache(ctx context.Context, pattern string, confirm bool) (int, error) {
	if !confirm {
		return 0, apperr.Invalid("confirm", "must be true to clear the cache")
	}
	n, err := s.cache.Clear(ctx, pattern)
	if errors.Is(err, cache.ErrBadPattern) {
		return 0, apperr.Invalid("pattern", "must be a key pattern of at most 200 characters")
	}
	if err != nil {
		return n, apperr.Wrap(apperr.Unavailable, "the cache is unavailable", err)
	}
	return n, nil
}
