package audit_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// The list's total stays exact while the counts of settled entries (before
// today, and today's up to the last hour) come from Redis: for every filter,
// before and after entries are written, and as the settled hour and day
// move on.
func TestListTotalIsExactWithSettledCountsKept(t *testing.T) {
	db, _ := testkit.MustDB(t)
	rdb, _ := testkit.MustRedis(t)
	ctx := context.Background()
	now := time.Date(2026, 6, 15, 9, 30, 0, 0, time.UTC)
	l := audit.NewLog(db, rdb)
	l.SetClock(func() time.Time { return now })
	admins := []uuid.UUID{uuid.New(), uuid.New()}
	add := func(n int, from time.Time, spread time.Duration) {
		t.Helper()
		err := db.Exec(`INSERT INTO admin_audit_logs (admin_id, action, entity_id, created_at)
			SELECT (ARRAY[?::uuid, ?::uuid])[1 + g % 2], (ARRAY['product.update','auth.login','auth.logout'])[1 + g % 3],
			       'e' || (g % 5), ?::timestamptz + (g * ?::bigint) * interval '1 microsecond'
			FROM generate_series(1, ?) g`, admins[0], admins[1], from, spread.Microseconds()/int64(n), n).Error
		if err != nil {
			t.Fatal(err)
		}
	}
	add(600, now.AddDate(0, 0, -40), 38*24*time.Hour) // settled days
	add(60, now.AddDate(0, 0, -1).Truncate(24*time.Hour), 24*time.Hour)
	add(30, now.Truncate(24*time.Hour), 9*time.Hour)

	day := func(d int) *time.Time { v := now.Truncate(24*time.Hour).AddDate(0, 0, d); return &v }
	at := func(h int) *time.Time { v := now.Truncate(24 * time.Hour).Add(time.Duration(h) * time.Hour); return &v } // today, h o'clock
	filters := []struct {
		name  string
		f     audit.Filter
		where string
		args  []any
	}{
		{"all", audit.Filter{}, "TRUE", nil},
		{"admin", audit.Filter{AdminID: &admins[0]}, "admin_id = ?", []any{admins[0]}},
		{"action", audit.Filter{Action: "product.update"}, "action = 'product.update'", nil},
		{"action prefix", audit.Filter{Action: "auth.*"}, "action LIKE 'auth.%'", nil},
		{"entity", audit.Filter{EntityID: "e3"}, "entity_id = 'e3'", nil},
		{"from settled", audit.Filter{From: day(-20)}, "created_at >= ?", []any{*day(-20)}},
		{"to settled", audit.Filter{To: day(-10)}, "created_at < ?", []any{*day(-10)}},
		{"from today", audit.Filter{From: day(0)}, "created_at >= ?", []any{*day(0)}},
		{"this morning", audit.Filter{From: day(0), To: at(5)}, "created_at >= ? AND created_at < ?", []any{*day(0), *at(5)}},
		{"the last hour", audit.Filter{From: at(9)}, "created_at >= ?", []any{*at(9)}},
		{"admin and dates", audit.Filter{AdminID: &admins[1], From: day(-30), To: day(1)},
			"admin_id = ? AND created_at >= ? AND created_at < ?", []any{admins[1], *day(-30), *day(1)}},
	}
	check := func(stage string) {
		t.Helper()
		for _, c := range filters {
			var want int64
			db.Raw("SELECT count(*) FROM admin_audit_logs WHERE "+c.where, c.args...).Scan(&want)
			for range 2 { // the second reads the kept count
				_, total, err := l.List(ctx, c.f, paging.Window{Limit: 5})
				if err != nil {
					t.Fatal(err)
				}
				if total != want {
					t.Fatalf("%s: %s: total %d, want %d", stage, c.name, total, want)
				}
			}
		}
	}
	check("seeded")
	kept, _ := rdb.Keys(ctx, "shop:audit-count:*").Result()
	if len(kept) < 5 {
		t.Fatalf("%d settled counts kept in Redis, want one per filter reaching before the last hour", len(kept))
	}
	// New entries carry the time they are written: within the last hour.
	add(7, now.Add(-50*time.Minute), 40*time.Minute)
	check("entries added in the last hour")
	now = now.Add(time.Hour) // the last hour settles
	add(5, now.Add(-10*time.Minute), 5*time.Minute)
	check("an hour later")
	now = now.Add(15 * time.Hour) // past midnight: today's hours become a settled day
	add(3, now.Add(-30*time.Minute), 20*time.Minute)
	check("the next day")
	now = now.AddDate(0, 0, 1)
	check("a day later")
}
