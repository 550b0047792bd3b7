package einvoice

import (
	"context"

	"github.com/google/uuid"
)

// HandOff is told when a fulfilment's e-way bill is generated, so that a
// courier booking that waited for it (BlocksHandOff) goes at once rather
// than at its task's next retry (package shipment).
type HandOff interface {
	EwayBillGenerated(ctx context.Context, fulfillmentID uuid.UUID)
}

// WithHandOff has every generated e-way bill told to h.
func (s *Service) WithHandOff(h HandOff) *Service {
	s.handOff = h
	return s
}

// handedOff tells the hand-off, if any, that fulfilment fid's bill is
// generated.
func (s *Service) handedOff(ctx context.Context, fid uuid.UUID) {
	if s.handOff != nil {
		s.handOff.EwayBillGenerated(ctx, fid)
	}
}
