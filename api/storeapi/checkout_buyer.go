package storeapi

import (
	"strings"

	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/models"
)

// taxBuyerRequest is the business a checkout is for, both optional: a GSTIN
// makes the order's invoices B2B ones (docs/DECISIONS.md "Tax documents").
type taxBuyerRequest struct {
	BuyerGSTIN string `json:"buyerGstin" validate:"max=20"`
	BuyerName  string `json:"buyerName" validate:"max=200"`
}

// buyer validates the GSTIN fully (pattern and check character; its state
// need not be the shipping address's: goods may be shipped elsewhere than
// the buyer is registered). Errors: VALIDATION_ERROR naming buyerGstin.
func (r taxBuyerRequest) buyer() (models.TaxBuyer, error) {
	b := models.TaxBuyer{BuyerName: strings.TrimSpace(r.BuyerName)}
	if strings.TrimSpace(r.BuyerGSTIN) == "" {
		return b, nil
	}
	g := gstin.Normalize(r.BuyerGSTIN)
	if err := gstin.Check("buyerGstin", g, ""); err != nil {
		return b, err
	}
	b.BuyerGSTIN = &g
	return b, nil
}
