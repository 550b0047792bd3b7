package orderedit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// CloseAtGateway cancels at the gateway balance link row id, closed here
// when its order's balance changed (order.StageCloseLinks), and records
// when the gateway answered (gateway_closed_at). A link not cancelled here,
// closed there already, or never made there is left alone. A gateway that
// says the link is paid, or will not cancel it (expired), has closed it
// too: the payment's event is recorded for review (SettleLink). An
// unknown outcome (ErrUnavailable) is the error, so the task is retried.
func (s *Service) CloseAtGateway(ctx context.Context, id uuid.UUID) error {
	var l models.OrderPaymentLink
	err := s.db.WithContext(ctx).Take(&l, "id = ?", id).Error
	if database.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("orderedit.close_link: %w", err)
	}
	if l.Status != models.LinkCancelled || l.GatewayClosedAt != nil || l.LinkID == nil {
		return nil
	}
	err = s.links.CancelLink(ctx, *l.LinkID)
	switch {
	case errors.Is(err, gateway.ErrLinkPaid):
		s.log.WarnContext(ctx, "cancelled balance link was paid at the gateway; its payment is recorded for review",
			"order_id", l.OrderID, "link_id", *l.LinkID)
	case errors.Is(err, gateway.ErrRefused):
		s.log.WarnContext(ctx, "gateway refused to cancel a balance link; it takes no payment", "order_id", l.OrderID,
			"link_id", *l.LinkID, "err", err)
	case err != nil:
		return fmt.Errorf("orderedit.close_link: %w", err)
	}
	if err := s.db.WithContext(ctx).Model(&models.OrderPaymentLink{}).Where("id = ? AND gateway_closed_at IS NULL", l.ID).
		Update("gateway_closed_at", time.Now().UTC()).Error; err != nil {
		return fmt.Errorf("orderedit.close_link: %w", err)
	}
	return nil
}

// LinkClosing counts what CloseStaleLinks did.
type LinkClosing struct {
	// Closed is the links the gateway cancelled (or said were closed).
	Closed int `json:"closed"`
	// Pending is the links the gateway still did not answer for.
	Pending int `json:"pending"`
}

// closeGrace leaves a cancelled link to its own task for a while.
const closeGrace = 10 * time.Minute

// CloseStaleLinks cancels at the gateway, up to 500 a run, every balance
// link cancelled here more than ten minutes ago that the gateway has not
// cancelled yet (its task died, ran out of retries, or was never queued);
// reconcile runs it. Errors are database failures only.
func (s *Service) CloseStaleLinks(ctx context.Context) (LinkClosing, error) {
	var rep LinkClosing
	var ids []uuid.UUID
	if err := s.db.WithContext(ctx).Model(&models.OrderPaymentLink{}).
		Where("status = ? AND gateway_closed_at IS NULL AND link_id IS NOT NULL AND cancelled_at < ?", models.LinkCancelled,
			time.Now().Add(-closeGrace)).Order("cancelled_at").Limit(500).Pluck("id", &ids).Error; err != nil {
		return rep, fmt.Errorf("orderedit.close_stale_links: %w", err)
	}
	for _, id := range ids {
		if err := s.CloseAtGateway(ctx, id); err != nil {
			rep.Pending++
			s.log.WarnContext(ctx, "balance link still not cancelled at the gateway", "link", id, "err", err)
			continue
		}
		rep.Closed++
	}
	return rep, nil
}
