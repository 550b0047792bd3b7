package analytics

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/storeday"
	"gorm.io/gorm"
)

// rollupTables are the tables Rollup keeps. The status breakdown has none:
// it reads the order counters (Orders).
var rollupTables = []string{"analytics_daily", "analytics_daily_payment", "analytics_product_daily"}

// rollupLock serializes rollups: two rollups of the same day running at once
// would both delete and then both insert its rows.
const rollupLock = 727100

// refundedSQL is what was refunded on order o that its total still counts:
// refunded_total less the refunds of edits, whose lower total already left
// the order's (docs/DECISIONS.md "Order edits"), so revenue (total less
// refunds) does not take them off twice.
const refundedSQL = `(o.refunded_total - COALESCE((SELECT sum(r.amount) FROM refunds r
	WHERE r.order_id = o.id AND r.order_edit_id IS NOT NULL AND r.status = 'processed'), 0))`

// Rollup recomputes the rollups of every day in r from the raw orders, in
// one transaction. Days without orders end with no rows (reports read them
// as zero). Running it twice gives the same rows.
func (s *Service) Rollup(ctx context.Context, r Range) error {
	// The instants of the store's days: [start, end).
	loc := s.zone()
	start, end := storeday.Start(r.From, loc), storeday.End(r.To, loc)
	zone := loc.String()
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec(`SELECT pg_advisory_xact_lock(?)`, rollupLock).Error; err != nil {
			return err
		}
		for _, table := range rollupTables {
			// table comes from the fixed list above, never from input.
			if err := tx.Exec(`DELETE FROM `+table+` WHERE day >= ?::date AND day <= ?::date`, date(r.From), date(r.To)).Error; err != nil {
				return err
			}
		}
		// One scan of the span's orders per day and payment method feeds
		// both the day's totals and its payment methods, so the two always
		// agree (per day, the methods' amounts are gross - refunds).
		if err := tx.Exec(`
			WITH per AS (
				SELECT (o.created_at AT TIME ZONE ?)::date AS day, o.payment_method AS method, count(*) AS orders,
				       count(*) FILTER (WHERE o.status <> 'cancelled') AS revenue_orders,
				       COALESCE(sum(o.total) FILTER (WHERE o.status <> 'cancelled'), 0) AS gross,
				       COALESCE(sum(`+refundedSQL+`) FILTER (WHERE o.status <> 'cancelled'), 0) AS refunds
				FROM orders o
				WHERE o.created_at >= ? AND o.created_at < ?
				GROUP BY 1, 2),
			daily AS (
				INSERT INTO analytics_daily (day, orders, revenue_orders, gross, refunds, updated_at)
				SELECT day, sum(orders), sum(revenue_orders), sum(gross), sum(refunds), now() FROM per GROUP BY day)
			INSERT INTO analytics_daily_payment (day, method, orders, amount)
			SELECT day, method, revenue_orders, gross - refunds FROM per WHERE revenue_orders > 0`, zone, start, end).Error; err != nil {
			return err
		}
		return tx.Exec(`
			INSERT INTO analytics_product_daily (day, product_id, title, orders, units, revenue)
			SELECT (o.created_at AT TIME ZONE ?)::date, i.product_id,
			       COALESCE(max(p.title), max(i.title)),
			       count(DISTINCT o.id), sum(i.quantity), sum(i.line_total)
			FROM orders o
			JOIN order_items i ON i.order_id = o.id
			LEFT JOIN products p ON p.id = i.product_id
			WHERE o.created_at >= ? AND o.created_at < ?
			  AND o.status <> 'cancelled' AND i.product_id IS NOT NULL
			GROUP BY 1, 2`, zone, start, end).Error
	})
	if err != nil {
		return fmt.Errorf("analytics.rollup %s..%s: %w", r.From.Format(time.DateOnly), r.To.Format(time.DateOnly), err)
	}
	return nil
}

// RollupUTCDays recomputes the store days that the UTC dates from..to
// touch: what a touch (Touch) or the scheduler's tick names, which know no
// zone. In a zone off UTC that is one day more than the UTC dates.
func (s *Service) RollupUTCDays(ctx context.Context, from, to time.Time) error {
	loc := s.zone()
	first := storeday.Date(Day(from), loc)
	last := storeday.Date(Day(to).AddDate(0, 0, 1).Add(-time.Nanosecond), loc)
	return s.Rollup(ctx, Range{From: first, To: last})
}

// RollupAll recomputes every day from the first order's to today and
// returns how many days that was (0 when there are no orders).
func (s *Service) RollupAll(ctx context.Context, now time.Time) (int, error) {
	// sql.NullTime: GORM's Scan cannot store min()'s NULL of an empty table
	// in a *time.Time.
	var first sql.NullTime
	if err := s.db.WithContext(ctx).Raw(`SELECT min(created_at) FROM orders`).Row().Scan(&first); err != nil {
		return 0, fmt.Errorf("analytics.rollup_all: %w", err)
	}
	if !first.Valid {
		// No orders: clear any rollup rows left from deleted orders.
		return 0, s.clearAll(ctx)
	}
	r := Range{From: storeday.Date(first.Time, s.zone()), To: storeday.Date(now, s.zone())}
	if r.To.Before(r.From) {
		r.To = r.From
	}
	if err := s.clearBefore(ctx, r.From); err != nil {
		return 0, err
	}
	// A month per transaction: years of orders never make one long lock.
	for from := r.From; !from.After(r.To); from = from.AddDate(0, 0, rollupChunkDays) {
		to := from.AddDate(0, 0, rollupChunkDays-1)
		if to.After(r.To) {
			to = r.To
		}
		if err := s.Rollup(ctx, Range{From: from, To: to}); err != nil {
			return 0, err
		}
	}
	return r.Days(), nil
}

// rollupChunkDays is the span RollupAll recomputes per transaction.
const rollupChunkDays = 31

func (s *Service) clearAll(ctx context.Context) error {
	return s.clearBefore(ctx, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC))
}

// clearBefore removes rollup rows of days before day, which no order has.
func (s *Service) clearBefore(ctx context.Context, day time.Time) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		for _, table := range rollupTables {
			if err := tx.Exec(`DELETE FROM `+table+` WHERE day < ?::date`, date(day)).Error; err != nil {
				return fmt.Errorf("analytics.clear: %w", err)
			}
		}
		return nil
	})
}

// date renders t as a SQL date literal, so comparisons with date columns do
// not depend on the session's time zone.
func date(t time.Time) string { return t.UTC().Format(time.DateOnly) }
