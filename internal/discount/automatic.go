package discount

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"gorm.io/gorm"
)

// AutomaticSource supplies the active AUTOMATIC discounts.
type AutomaticSource interface {
	Automatic(ctx context.Context, db *gorm.DB) ([]Target, error)
}

// Fresh reads the automatic discounts from db on every call: checkout uses
// it, inside its transaction, so an order is priced with the discounts in
// force at that moment.
var Fresh AutomaticSource = fresh{}

type fresh struct{}

func (fresh) Automatic(ctx context.Context, db *gorm.DB) ([]Target, error) {
	return LoadAutomatic(ctx, db)
}

// Recent keeps the automatic discounts in process for a short while: every
// cart read needs them, and they change rarely. A cart shown within TTL of
// an edit to a discount may still show the old one; checkout re-reads them
// (Fresh), so the price paid is always current.
type Recent struct {
	ttl  time.Duration
	mu   sync.Mutex
	at   time.Time
	gen  int64
	list []Target
}

// generation counts the discount writes of this process: a Recent source
// re-reads after one, so an administrator's change shows in the next cart
// of the process that made it (other processes within the TTL).
var generation atomic.Int64

// changed records a committed discount write.
func changed() { generation.Add(1) }

// NewRecent returns a source that re-reads at most every ttl.
func NewRecent(ttl time.Duration) *Recent { return &Recent{ttl: ttl} }

// Automatic returns the discounts read less than ttl ago, else reads them.
func (r *Recent) Automatic(ctx context.Context, db *gorm.DB) ([]Target, error) {
	r.mu.Lock()
	if !r.at.IsZero() && time.Since(r.at) < r.ttl && r.gen == generation.Load() {
		list := r.list
		r.mu.Unlock()
		return list, nil
	}
	r.mu.Unlock()
	gen := generation.Load()
	list, err := LoadAutomatic(ctx, db)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.list, r.at, r.gen = list, time.Now(), gen
	r.mu.Unlock()
	return list, nil
}
