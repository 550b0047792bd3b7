package reconcile

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// orphanReservations removes reservation rows of sessions that are no
// longer pending (the flow that ended them should have); the counter step
// that follows brings variants.reserved in line.
func (s *Service) orphanReservations(ctx context.Context, r *Report) error {
	res := s.db.WithContext(ctx).Exec(`DELETE FROM stock_reservations sr USING checkout_sessions cs
		WHERE cs.id = sr.checkout_session_id AND cs.state <> 'PENDING'`)
	r.Orphans.Reservations = res.RowsAffected
	return res.Error
}

// bulkJobRetention is how long applied bulk inventory jobs are remembered.
const bulkJobRetention = 30 * 24 * time.Hour

// orphans releases cart locks of ended sessions and deletes rows nothing
// will use again: cart lines of archived products (in carts not checking
// out), used or expired claim tokens, expired admin sessions and 2FA
// challenges, and old bulk job records.
func (s *Service) orphans(ctx context.Context, r *Report) error {
	db := s.db.WithContext(ctx)
	now := s.now()
	steps := []struct {
		count *int64
		sql   string
		args  []any
	}{
		{&r.Orphans.CartLocks, `UPDATE carts SET locked_by = NULL, updated_at = now()
			WHERE locked_by IS NOT NULL AND NOT EXISTS (SELECT 1 FROM checkout_sessions cs
				WHERE cs.id = carts.locked_by AND cs.state = 'PENDING')`, nil},
		{&r.Orphans.CartItems, `DELETE FROM cart_items ci USING variants v, products p, carts c
			WHERE v.id = ci.variant_id AND p.id = v.product_id AND c.id = ci.cart_id
			  AND p.status = 'archived' AND c.locked_by IS NULL`, nil},
		{&r.Orphans.ClaimTokens, `DELETE FROM claim_tokens WHERE used_at IS NOT NULL OR expires_at < ?`, []any{now}},
		{&r.Orphans.AdminSessions, `DELETE FROM admin_sessions WHERE expires_at < ?`, []any{now}},
		{&r.Orphans.LoginChallenges, `DELETE FROM admin_login_challenges WHERE expires_at < ?`, []any{now}},
		{&r.Orphans.BulkJobs, `DELETE FROM bulk_inventory_jobs WHERE applied_at < ?`, []any{now.Add(-bulkJobRetention)}},
	}
	for _, st := range steps {
		res := db.Exec(st.sql, st.args...)
		if res.Error != nil {
			return res.Error
		}
		*st.count = res.RowsAffected
	}
	return nil
}

// consistency reports money and state mismatches that need a person:
// orders whose refunded total differs from their processed refunds, and completed
// checkouts whose order is missing.
func (s *Service) consistency(ctx context.Context, r *Report) error {
	db := s.db.WithContext(ctx)
	var refunds []struct {
		ID            uuid.UUID
		OrderNumber   string
		RefundedTotal int64
		Refunds       int64
	}
	if err := db.Raw(`SELECT o.id, o.order_number, o.refunded_total, COALESCE(sum(rf.amount), 0)::bigint AS refunds
		FROM orders o LEFT JOIN refunds rf ON rf.order_id = o.id AND rf.status = 'processed'
		WHERE o.refunded_total <> 0 OR rf.id IS NOT NULL
		GROUP BY o.id HAVING o.refunded_total <> COALESCE(sum(rf.amount), 0)`).Scan(&refunds).Error; err != nil {
		return err
	}
	for _, o := range refunds {
		r.Problems = append(r.Problems, Problem{Kind: "refund_total_mismatch", Entity: o.ID.String(),
			Detail: fmt.Sprintf("order %s: refundedTotal %d paise but refunds sum to %d", o.OrderNumber, o.RefundedTotal, o.Refunds)})
	}
	var orphaned []uuid.UUID
	if err := db.Raw(`SELECT id FROM checkout_sessions WHERE state = 'COMPLETED'
		AND (order_id IS NULL OR NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = checkout_sessions.order_id))`).
		Scan(&orphaned).Error; err != nil {
		return err
	}
	for _, id := range orphaned {
		r.Problems = append(r.Problems, Problem{Kind: "completed_checkout_without_order", Entity: id.String(),
			Detail: "checkout session is COMPLETED but its order is missing"})
	}
	return nil
}
