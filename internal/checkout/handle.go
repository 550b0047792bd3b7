// The webhook side of the checkout: a verified gateway event completes
// (complete.go), fails (fail.go) or reviews a session, or refunds the
// duplicate payment of a purchase already made (duplicate.go).

package checkout

import (
	"context"

	"github.com/gocommerce/shop/internal/gateway"
)

// Handle applies a verified event. Events it does not handle are ignored.
// An error means the event should be retried; outcomes that retrying cannot
// change (no session, amount mismatch, stock gone) are not errors.
func (s *Service) Handle(ctx context.Context, ev gateway.Event) error {
	switch ev.Name {
	case gateway.PaymentCaptured, gateway.OrderPaid:
		_, err := s.Capture(ctx, ev.Payment)
		return err
	case gateway.PaymentLinkPaid:
		// A link's session has the link id for its gateway order id
		// (link.go); the payment's own order_id is the link's internal order.
		p := ev.Payment
		p.OrderID = ev.LinkID
		_, err := s.Capture(ctx, p)
		return err
	case gateway.PaymentFailed:
		return s.Fail(ctx, ev.Payment)
	case gateway.PaymentAuthorized:
		return s.Authorize(ctx, ev.Payment)
	}
	return nil
}
