package fulfillment

import (
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// stageInvoice stages the tax invoice of fulfilment f of the locked order o
// in u: ls are the order's lines after the shipment (read with the tax
// identity's version), shipped its units by line and from the registration
// of the location they leave from. The invoice is
// numbered when u commits, so the series row is locked only for the
// commit.
func (s *Service) stageInvoice(u *uow.Unit, o *models.Order, f *models.Fulfillment, ls []line, shipped map[uuid.UUID]int,
	from invoice.Issuer) error {
	if len(ls) == 0 || ls[0].TaxSettingsAt == nil {
		return nil
	}
	sh := invoice.Shipment{SettingsAt: *ls[0].TaxSettingsAt, From: from}
	before := 0
	for _, l := range ls {
		q := shipped[l.ID]
		b := l.Quantity - l.Left - q
		before += b
		if q > 0 {
			sh.Units = append(sh.Units, invoice.Units{OrderItemID: l.ID, Before: b, Cancelled: l.Sold - l.Quantity, Quantity: q,
				Line: models.PricedLine{Title: l.Title, SKU: l.SKU, Quantity: l.Sold, UnitPrice: l.UnitPrice,
					DiscountAmount: l.DiscountAmount, LineTotal: l.LineTotal, GSTRate: l.GSTRate, TaxAmount: l.TaxAmount,
					HSNCode: l.HSNCode, CessRate: l.CessRate, CessAmount: l.CessAmount, Unit: l.Unit}})
		}
	}
	// The shipping is billed with the order's first live shipment.
	sh.First = before == 0
	return s.invoices.StageFulfillmentInvoice(u, o, f, sh)
}
