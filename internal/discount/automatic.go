package discount

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"gorm.io/gorm"
)

// AutomaticSource supplies the active AUTOMATIC discounts.
type AutomaticSource interface {
	Automatic(ctx context.Context, db *gorm.DB) ([]Target, error)
}

// Fresh answers the automatic discounts in force at the moment of the
// call: checkout uses it, inside its transaction, so an order is priced
// with the discounts in force then. It reads the discounts' version (one
// row, bumped in the same transaction as every change that can change a
// discount's outcome: migrations/00064) and reads the discounts again only
// when it moved; the products of buy X get Y collections are read each
// time. With 50 promotions that is one short statement instead of reading
// and decoding 50 rows on every checkout.
var Fresh AutomaticSource = &versioned{lists: map[string]versionedList{}}

// versioned keeps, per database (tests run many in one process), the
// discounts read at a version.
type versioned struct {
	mu    sync.Mutex
	lists map[string]versionedList
}

type versionedList struct {
	version int64
	list    []Target
}

func (v *versioned) Automatic(ctx context.Context, db *gorm.DB) ([]Target, error) {
	// The database's oid, not its name: one dropped and made again under
	// the same name starts its versions again.
	var at struct {
		Version  int64
		Database string
	}
	if err := db.WithContext(ctx).Raw(`SELECT v.version, d.oid::text || '@' || coalesce(inet_server_port(), 0) AS database
		FROM discount_version v, pg_database d WHERE d.datname = current_database()`).Scan(&at).Error; err != nil {
		return nil, fmt.Errorf("discount.version: %w", err)
	}
	v.mu.Lock()
	kept, ok := v.lists[at.Database]
	v.mu.Unlock()
	if !ok || kept.version != at.Version {
		// Read after the version: the rows are at least as new as it, so a
		// list kept under a version is never older than that version.
		list, err := loadAutomatic(ctx, db)
		if err != nil {
			return nil, err
		}
		kept = versionedList{version: at.Version, list: list}
		v.mu.Lock()
		if cur, ok := v.lists[at.Database]; !ok || cur.version <= at.Version {
			v.lists[at.Database] = kept
		}
		v.mu.Unlock()
	}
	return withCollections(ctx, db, kept.list)
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
