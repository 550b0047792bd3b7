package system

import (
	"context"

	"github.com/gocommerce/shop/internal/catalog"
)

// StateHSNMissing is taxDocuments while an active product has no HSN code:
// documents are issued, but its lines would print none.
const StateHSNMissing = "hsn_missing"

// TaxIdentity tells whether the store's tax identity is set (package
// invoice): without it no tax document is issued.
type TaxIdentity interface {
	Configured(ctx context.Context) (bool, error)
}

// UseTaxIdentity makes the health report say whether tax documents are
// issued (taxDocuments); the composition root wires it.
func (s *Service) UseTaxIdentity(t TaxIdentity) { s.taxIdentity = t }

// taxDocumentsState is ok when documents are issued, not_configured before
// the tax identity is set, hsn_missing while an active product lacks the
// HSN code its documents need, error when the database cannot say.
func (s *Service) taxDocumentsState(ctx context.Context) string {
	if s.taxIdentity == nil {
		return StateNotConfigured
	}
	ok, err := s.taxIdentity.Configured(ctx)
	switch {
	case err != nil:
		return StateError
	case !ok:
		return StateNotConfigured
	}
	var missing bool
	if err := s.db.WithContext(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM products WHERE ` + catalog.MissingHSNWhere + `)`).
		Scan(&missing).Error; err != nil {
		return StateError
	}
	if missing {
		return StateHSNMissing
	}
	return StateOK
}
