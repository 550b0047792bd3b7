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
// wrote it, so the entries created before yesterday (UTC) never change. Their
// count under f is kept in Redis for two days once counted, and only the
// entries since are counted each time: at 10M entries a full count took
// seconds (docs/SCALING.md). Without Redis the whole count is made.
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

// settledFor is how long a settled day's count is kept: past it, the
// boundary has moved on and the key is no longer read.
const settledFor = 48 * time.Hour

// count is how many entries match f: the kept count of the entries before
// the settled boundary (counted once) plus a count of those since.
func (l *Log) count(ctx context.Context, f Filter, matching *gorm.DB) (int64, error) {
	day := l.clock().UTC().Truncate(24 * time.Hour)
	settled := day.AddDate(0, 0, -1) // a day's margin for clocks and transactions in flight
	if f.From != nil && !f.From.Before(settled) {
		var n int64
		return n, matching.Count(&n).Error
	}
	before, err := l.settledCount(ctx, f, matching, settled)
	if err != nil {
		return 0, err
	}
	if f.To != nil && !f.To.After(settled) {
		return before, nil
	}
	var since int64
	err = matching.Where("created_at >= ?", settled).Count(&since).Error
	return before + since, err
}

// settledCount counts the entries matching f created before settled, from
// Redis when it was counted since settled last moved.
func (l *Log) settledCount(ctx context.Context, f Filter, matching *gorm.DB, settled time.Time) (int64, error) {
	key := "shop:audit-count:" + settled.Format(time.DateOnly) + ":" + f.key()
	if v, err := l.rdb.Get(ctx, key).Result(); err == nil {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return n, nil
		}
	}
	var n int64
	if err := matching.Where("created_at < ?", settled).Count(&n).Error; err != nil {
		return 0, err
	}
	// Not kept is only slower next time: the count is right either way.
	l.rdb.Set(ctx, key, n, settledFor)
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
