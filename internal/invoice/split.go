package invoice

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
)

// Sources of a TaxSplit.
const (
	SplitFromInvoices = "invoices"
	SplitFromOrder    = "order"
)

// TaxSplit is how an order's GST divides between CGST, SGST and IGST.
// The order is priced with one place of supply against the store's state;
// its invoices are issued per fulfilment by the registration of the
// location that ships (docs/DECISIONS.md "Daily work"), so an order
// shipped from two states is CGST+SGST on one invoice and IGST on the
// other. Once any invoice exists the split is theirs (what was filed),
// else the order's.
type TaxSplit struct {
	CGST   money.Amount `json:"cgst"`
	SGST   money.Amount `json:"sgst"`
	IGST   money.Amount `json:"igst"`
	Source string       `json:"source"`
}

// TaxSplit returns o's split: its issued invoices' sums when it has any,
// else its own totals.
func (s *Service) TaxSplit(ctx context.Context, o *models.Order) (TaxSplit, error) {
	var row struct {
		N                int64
		CGST, SGST, IGST money.Amount
	}
	if err := s.db.WithContext(ctx).Raw(`SELECT count(*) AS n, coalesce(sum(cgst), 0)::bigint AS cgst, coalesce(sum(sgst), 0)::bigint AS sgst,
		coalesce(sum(igst), 0)::bigint AS igst FROM tax_documents WHERE order_id = ? AND doc_type = ?`, o.ID, models.DocInvoice).
		Scan(&row).Error; err != nil {
		return TaxSplit{}, fmt.Errorf("invoice.tax_split: %w", err)
	}
	if row.N == 0 {
		return TaxSplit{CGST: o.CGSTTotal, SGST: o.SGSTTotal, IGST: o.IGSTTotal, Source: SplitFromOrder}, nil
	}
	return TaxSplit{CGST: row.CGST, SGST: row.SGST, IGST: row.IGST, Source: SplitFromInvoices}, nil
}
