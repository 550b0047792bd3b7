package order

import (
	"time"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// StageNote adds to b a history entry of the locked order o that records a
// change without a status move (e.g. unshipped units cancelled,
// docs/DECISIONS.md "Returned units and unshipped units"): from and to are o's status, the
// note says what changed. No order.status_changed goes with it.
func StageNote(b *database.Batch, o *models.Order, note string, adminID uuid.UUID) {
	var admin *uuid.UUID
	if adminID != uuid.Nil {
		admin = &adminID
	}
	b.Insert("order_status_history", []string{"order_id", "from_status", "to_status", "note", "admin_id", "created_at"},
		[]any{o.ID, o.Status, o.Status, note, admin, time.Now().UTC()})
}
