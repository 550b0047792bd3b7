package fulfillment

import (
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Invoices issues the tax documents of shipments (package invoice,
// docs/DECISIONS.md "Tax documents").
type Invoices interface {
	// StageFulfillmentInvoice takes the invoice's number in tx and stages
	// the invoice in b; nothing without a tax identity.
	StageFulfillmentInvoice(tx *gorm.DB, b *database.Batch, o *models.Order, f *models.Fulfillment, units []invoice.Units) error
	// CreditCancelledFulfillment credits the invoice of a cancelled shipment.
	CreditCancelledFulfillment(tx *gorm.DB, o *models.Order, f *models.Fulfillment) error
}

// UseInvoices makes every fulfilment issue its tax invoice through inv, and
// every cancellation its credit note (the composition root wires it).
func (s *Service) UseInvoices(inv Invoices) { s.invoices = inv }

// stageInvoice stages the tax invoice of fulfilment f of the locked order
// o: ls are the order's lines after the shipment and shipped its units by
// line. It is the last thing staged before the batch runs, so the invoice
// series row, locked from here, is held only for the batch and the commit.
func (s *Service) stageInvoice(tx *gorm.DB, b *database.Batch, o *models.Order, f *models.Fulfillment, ls []line, shipped map[uuid.UUID]int) error {
	if s.invoices == nil {
		return nil
	}
	var units []invoice.Units
	for _, l := range ls {
		if q := shipped[l.ID]; q > 0 {
			units = append(units, invoice.Units{OrderItemID: l.ID, Before: l.Quantity - l.Left - q, Quantity: q})
		}
	}
	return s.invoices.StageFulfillmentInvoice(tx, b, o, f, units)
}

// creditCancelled credits the invoice of fulfilment f, just cancelled.
func (s *Service) creditCancelled(tx *gorm.DB, o *models.Order, f *models.Fulfillment) error {
	if s.invoices == nil {
		return nil
	}
	return s.invoices.CreditCancelledFulfillment(tx, o, f)
}
