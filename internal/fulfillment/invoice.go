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
	// StageFulfillmentInvoice stages the shipment's invoice in b (numbered
	// when tx commits); nothing without a tax identity.
	StageFulfillmentInvoice(tx *gorm.DB, b *database.Batch, o *models.Order, f *models.Fulfillment, sh invoice.Shipment) error
	// CreditCancelledFulfillment credits the invoice of a cancelled shipment.
	CreditCancelledFulfillment(tx *gorm.DB, o *models.Order, f *models.Fulfillment) error
}

// UseInvoices makes every fulfilment issue its tax invoice through inv, and
// every cancellation its credit note (the composition root wires it).
func (s *Service) UseInvoices(inv Invoices) { s.invoices = inv }

// stageInvoice stages the tax invoice of fulfilment f of the locked order o
// in b: ls are the order's lines after the shipment (read with the tax
// identity's version) and shipped its units by line. The invoice is
// numbered when the transaction commits, so the series row is locked only
// for the commit.
func (s *Service) stageInvoice(tx *gorm.DB, b *database.Batch, o *models.Order, f *models.Fulfillment, ls []line, shipped map[uuid.UUID]int) error {
	if s.invoices == nil || len(ls) == 0 || ls[0].TaxSettingsAt == nil {
		return nil
	}
	sh := invoice.Shipment{SettingsAt: *ls[0].TaxSettingsAt}
	before := 0
	for _, l := range ls {
		q := shipped[l.ID]
		b := l.Quantity - l.Left - q
		before += b
		if q > 0 {
			sh.Units = append(sh.Units, invoice.Units{OrderItemID: l.ID, Before: b, Quantity: q,
				Line: models.PricedLine{Title: l.Title, SKU: l.SKU, Quantity: l.Sold, UnitPrice: l.UnitPrice,
					DiscountAmount: l.DiscountAmount, LineTotal: l.LineTotal, GSTRate: l.GSTRate, TaxAmount: l.TaxAmount,
					HSNCode: l.HSNCode}})
		}
	}
	// The shipping is billed with the order's first live shipment.
	sh.First = before == 0
	return s.invoices.StageFulfillmentInvoice(tx, b, o, f, sh)
}

// creditCancelled credits the invoice of fulfilment f, just cancelled.
func (s *Service) creditCancelled(tx *gorm.DB, o *models.Order, f *models.Fulfillment) error {
	if s.invoices == nil {
		return nil
	}
	return s.invoices.CreditCancelledFulfillment(tx, o, f)
}
