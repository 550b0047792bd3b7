package checkout

import (
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// continuedPurchase returns the purchase a new checkout of cart cartID is
// another attempt at, or nil when it starts one. One cart pays once: a
// checkout repeated with other details, or started again after a failed or
// expired one, replaces the earlier session, whose gateway order stays
// payable; all of them are attempts at one purchase, of which only one may
// become an order (the payments package refunds a capture of another). The
// new session continues the purchase of the cart's latest session unless
// that purchase already became an order. The caller holds the cart's lock,
// as every capture of its sessions does, so the answer cannot change under
// it.
func continuedPurchase(tx *gorm.DB, cartID uuid.UUID) (*uuid.UUID, error) {
	var latest struct {
		Purchase *uuid.UUID
		Ordered  bool
	}
	err := tx.Raw(`SELECT COALESCE(cs.purchase_id, cs.id) AS purchase,
			EXISTS (SELECT 1 FROM checkout_sessions o
			        WHERE COALESCE(o.purchase_id, o.id) = COALESCE(cs.purchase_id, cs.id) AND o.state = 'COMPLETED') AS ordered
		FROM checkout_sessions cs WHERE cs.cart_id = ? ORDER BY cs.created_at DESC, cs.id DESC LIMIT 1`, cartID).Scan(&latest).Error
	if err != nil || latest.Ordered {
		return nil, wrap("purchase", err)
	}
	return latest.Purchase, nil
}
