package order

import (
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// releaseUnshipped is the end of a refund that made the locked order o
// refunded in full while part of it had shipped (an unshipped order is
// cancelled instead, in countRefund): its unshipped units are cancelled
// and their commitment released, so they neither stay committed for ever
// nor can be fulfilled (docs/DECISIONS.md "Returned units and unshipped units").
// Shipped units stay as they are: they left, and come back by a return.
func (s *Service) releaseUnshipped(tx *gorm.DB, o *models.Order, refund *models.Refund) error {
	if o.PaymentStatus != models.PaymentRefunded || !holdsStock(o.Status) || s.fulfilments == nil {
		return nil
	}
	var admin uuid.UUID
	if refund.AdminID != nil {
		admin = *refund.AdminID
	}
	return s.fulfilments.ReleaseUnshipped(tx, o, StatusChange{Note: refund.Reason, AdminID: admin})
}
