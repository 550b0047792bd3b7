package audit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
	"gorm.io/gorm"
)

// Log reads the activity log, with filters, newest first.
type Log struct {
	db    *gorm.DB
	rdb   redis.Cmdable
	clock func() time.Time
}

// NewLog returns a Log on db that keeps the counts of settled days in rdb
// (see List).
func NewLog(db *gorm.DB, rdb redis.Cmdable) *Log {
	return &Log{db: db, rdb: rdb, clock: time.Now}
}

// Filter narrows List. Zero fields do not filter.
type Filter struct {
	AdminID *uuid.UUID
	// Action is matched exactly, or as a prefix when it ends in ".*"
	// ("auth.*" matches every auth action).
	Action   string
	EntityID string
	// From is inclusive, To exclusive.
	From, To *time.Time
}

// List returns a page of entries matching f, newest first, and how many
// match in all. Errors: SERVICE_UNAVAILABLE.
//
// The total is exact without counting every entry on each request: the log
// is append-only (a trigger refuses UPDATE and DELETE; retention never
// deletes it) and each entry carries the time of the short request that
// wrote it, so the entries created more than an hour ago never change. Their
// count under f is kept in Redis in two parts once counted (see count), and
// only the entries of the last hour or two are counted each time: at 10M
// entries a full count took seconds, and a count of everything since
// yesterday grew to a tenth of a second by the evening (docs/SCALING.md).
// Without Redis the whole count is made.
func (l *Log) List(ctx context.Context, f Filter, w paging.Window) ([]models.AdminAuditLog, int64, error) {
	limit, offset := w.Limit, w.Offset
	matching := f.where(l.db.WithContext(ctx).Model(&models.AdminAuditLog{})).Session(&gorm.Session{})
	total, err := l.count(ctx, f, matching)
	if err != nil {
		return nil, 0, database.Translate(err, "audit entry")
	}
	var rows []models.AdminAuditLog
	err = matching.Order("created_at DESC, id DESC").Offset(offset).Limit(limit).Find(&rows).Error
	return rows, total, database.Translate(err, "audit entry")
}

// where adds f's conditions to q.
func (f Filter) where(q *gorm.DB) *gorm.DB {
	if f.AdminID != nil {
		q = q.Where("admin_id = ?", *f.AdminID)
	}
	if prefix, ok := strings.CutSuffix(f.Action, ".*"); ok {
		q = q.Where(`action LIKE ? ESCAPE '\'`, database.LikeEscape(prefix)+".%")
	} else if f.Action != "" {
		q = q.Where("action = ?", f.Action)
	}
	if f.EntityID != "" {
		q = q.Where("entity_id = ?", f.EntityID)
	}
	if f.From != nil {
		q = q.Where("created_at >= ?", *f.From)
	}
	if f.To != nil {
		q = q.Where("created_at < ?", *f.To)
	}
	return q
}

// settledMargin is how far back entries may still be written: a request
// and its transaction last seconds, and clocks agree within that too, so an
// hour is a wide margin. Entries older than it never change.
const settledMargin = time.Hour

// settledPart is a span of settled entries whose count under a filter is
// kept in Redis: [from, until) (from nil: since the first entry), kept for
// keep, past which the boundaries have moved on and the key is not read.
type settledPart struct {
	from  *time.Time
	until time.Time
	keep  time.Duration
}

// count is how many entries match f: the kept counts of the entries before
// today (UTC; a key a day) and of today's up to the settled hour (a key an
// hour), each counted once, plus a count of the entries since that hour.
// Redis failing only makes the count slower.
func (l *Log) count(ctx context.Context, f Filter, matching *gorm.DB) (int64, error) {
	hour := l.clock().UTC().Add(-settledMargin).Truncate(time.Hour)
	day := hour.Truncate(24 * time.Hour)
	parts := []settledPart{{until: day, keep: 48 * time.Hour}, {from: &day, until: hour, keep: 2 * time.Hour}}
	var total int64
	for _, p := range parts {
		switch {
		case f.From != nil && !f.From.Before(p.until):
			continue // f matches nothing this early
		case p.from != nil && !p.from.Before(p.until):
			continue // an empty part, just after midnight
		}
		n, err := l.settledCount(ctx, f, matching, p)
		if err != nil {
			return 0, err
		}
		total += n
		if f.To != nil && !f.To.After(p.until) {
			return total, nil // f matches nothing later
		}
	}
	var recent int64
	err := matching.Where("created_at >= ?", hour).Count(&recent).Error
	return total + recent, err
}

// settledCount counts the entries matching f in part p, from Redis when it
// was counted before.
func (l *Log) settledCount(ctx context.Context, f Filter, matching *gorm.DB, p settledPart) (int64, error) {
	from := ""
	if p.from != nil {
		from = p.from.Format(time.RFC3339)
	}
	key := "shop:audit-count:" + from + ":" + p.until.Format(time.RFC3339) + ":" + f.key()
	if v, err := l.rdb.Get(ctx, key).Result(); err == nil {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return n, nil
		}
	}
	q := matching.Where("created_at < ?", p.until)
	if p.from != nil {
		q = q.Where("created_at >= ?", *p.from)
	}
	var n int64
	if err := q.Count(&n).Error; err != nil {
		return 0, err
	}
	// Not kept is only slower next time: the count is right either way.
	l.rdb.Set(ctx, key, n, p.keep)
	return n, nil
}

// key identifies f: the same conditions give the same key.
func (f Filter) key() string {
	admin := ""
	if f.AdminID != nil {
		admin = f.AdminID.String()
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", admin, f.Action, f.EntityID)
	for _, t := range []*time.Time{f.From, f.To} {
		if t != nil {
			h.Write([]byte(t.UTC().Format(time.RFC3339Nano)))
		}
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
