package order

import (
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// StageNote stages in u a history entry of the locked order o that records
// a change without a status move (e.g. unshipped units cancelled,
// docs/DECISIONS.md "Returned units and unshipped units"): from and to are
// o's status, the note says what changed. No order.status_changed goes
// with it.
func StageNote(u *uow.Unit, o *models.Order, note string, adminID uuid.UUID) error {
	from := o.Status
	h := models.OrderStatusHistory{OrderID: o.ID, FromStatus: &from, ToStatus: o.Status, Note: note, AdminID: adminRef(adminID),
		CreatedAt: time.Now().UTC()}
	if err := u.Create(&h); err != nil {
		return fmt.Errorf("order.note: %w", err)
	}
	return nil
}
