package system

import "context"

// TaxIdentity tells whether the store's tax identity is set (package
// invoice): without it no tax document is issued.
type TaxIdentity interface {
	Configured(ctx context.Context) (bool, error)
}

// UseTaxIdentity makes the health report say whether tax documents are
// issued (taxDocuments); the composition root wires it.
func (s *Service) UseTaxIdentity(t TaxIdentity) { s.taxIdentity = t }

// taxDocumentsState is ok when documents are issued, not_configured before
// the tax identity is set, error when the database cannot say.
func (s *Service) taxDocumentsState(ctx context.Context) string {
	if s.taxIdentity == nil {
		return StateNotConfigured
	}
	ok, err := s.taxIdentity.Configured(ctx)
	switch {
	case err != nil:
		return StateError
	case ok:
		return StateOK
	}
	return StateNotConfigured
}
