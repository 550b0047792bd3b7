package checkout

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// holdDiscounts holds the discounts applied that have a usage limit
// (holdDiscount), in the order of their ids so that two checkouts sharing
// discounts lock them in one order. A discount without a limit has nothing
// to hold: it is not locked, so checkouts taking the same automatic
// promotion do not queue behind one another.
func holdDiscounts(tx *gorm.DB, applied []discount.Applied, customerID, sessionID uuid.UUID) error {
	var ids []uuid.UUID
	for _, a := range applied {
		if d := &a.Target.Discount; d.UsageLimit != nil || d.CustomerUsageLimit != nil {
			ids = append(ids, d.ID)
		}
	}
	slices.SortFunc(ids, func(a, b uuid.UUID) int { return strings.Compare(a.String(), b.String()) })
	for _, id := range ids {
		if err := holdDiscount(tx, id, customerID, sessionID); err != nil {
			return err
		}
	}
	return nil
}

// sessionDiscountIDs returns the discounts a session applied: its list, or
// for a session written before the list existed its one discount.
func sessionDiscountIDs(sess *models.CheckoutSession) []uuid.UUID {
	var ids []uuid.UUID
	for _, a := range sess.AppliedDiscounts {
		ids = append(ids, a.ID)
	}
	if len(ids) == 0 && sess.DiscountID != nil {
		ids = append(ids, *sess.DiscountID)
	}
	return ids
}

// holdDiscount makes a discount's usage limits hold under concurrency. Uses
// are counted when a payment is captured, so a limit checked against
// usage_count alone would let every concurrent checkout through. Here the
// discount row is locked (checkouts using it take turns) and the pending,
// unexpired sessions that carry it (as their discount or in their applied
// list) count as uses. It runs after the stock is reserved, so checkout and
// capture lock variants before the discount. The lock is FOR NO KEY
// UPDATE: it serializes checkouts (and the capture's usage_count update,
// which takes the same lock) but does not conflict with the KEY SHARE lock
// that inserting a session referencing the discount takes.
// Errors: CONFLICT with the reason in details.
func holdDiscount(tx *gorm.DB, discountID, customerID, sessionID uuid.UUID) error {
	var d models.Discount
	if err := tx.Clauses(clause.Locking{Strength: "NO KEY UPDATE"}).Take(&d, "id = ?", discountID).Error; err != nil {
		return fmt.Errorf("checkout.hold_discount: %w", err)
	}
	pending := func(extra string, args ...any) (int64, error) {
		var n int64
		q := tx.Model(&models.CheckoutSession{}).
			Where("(discount_id = ? OR applied_discounts @> ?::jsonb) AND state = ? AND expires_at > now() AND id <> ?",
				discountID, `[{"id":"`+discountID.String()+`"}]`, models.CheckoutPending, sessionID)
		if extra != "" {
			q = q.Where(extra, args...)
		}
		err := q.Count(&n).Error
		return n, err
	}
	if d.UsageLimit != nil {
		n, err := pending("")
		if err != nil {
			return fmt.Errorf("checkout.hold_discount: %w", err)
		}
		if int64(d.UsageCount)+n >= int64(*d.UsageLimit) {
			return refused(discount.ReasonUsageLimit)
		}
	}
	if d.CustomerUsageLimit != nil {
		n, err := pending("customer_id = ?", customerID)
		if err != nil {
			return fmt.Errorf("checkout.hold_discount: %w", err)
		}
		used, err := discount.CustomerUses(tx.Statement.Context, tx, discountID, customerID)
		if err != nil {
			return err
		}
		if int64(used)+n >= int64(*d.CustomerUsageLimit) {
			return refused(discount.ReasonCustomerLimit)
		}
	}
	return nil
}

func refused(reason string) error {
	return apperr.New(apperr.Conflict, "the cart's discount code no longer applies: "+discount.Messages[reason]).
		WithDetails(map[string]any{"field": "discountCode", "reason": reason, "issue": discount.Messages[reason]})
}

// stageDiscountUse stages the order's use of each discount it applied: the
// total on the discount and a row per order that per-customer limits
// count. The use is counted even past a limit reached meanwhile: the
// customer has paid. A discount deleted since the checkout counts nothing.
func stageDiscountUse(u *uow.Unit, sess *models.CheckoutSession, orderID uuid.UUID) {
	for _, id := range sessionDiscountIDs(sess) {
		u.Update("discounts", id, `UPDATE discounts SET usage_count = usage_count + 1, updated_at = now() WHERE id = ?`, id)
		u.Add(`INSERT INTO discount_usages (discount_id, customer_id, order_id) SELECT id, ?, ? FROM discounts WHERE id = ?
		ON CONFLICT (discount_id, order_id) DO NOTHING`, sess.CustomerID, orderID, id)
	}
}
