package order

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
)

// StageCloseLinks closes, in u, every open balance payment link of the
// locked order o (docs/DECISIONS.md "Order edits"): its amount was the
// balance, which is changing (an edit, a payment, a cancel). The links
// become cancelled at once (a statement in u's transaction, so that a
// payment_link.paid that follows finds them closed), and, once u commits,
// a task per link cancels it at the gateway (tasks.NewCancelPaymentLinkTask,
// retried; reconcile retries what it leaves). StageMoves calls it for every
// change of balance_due and every cancel; a link made since is for the new
// balance. Only an edited order has links.
func StageCloseLinks(u *uow.Unit, o *models.Order) error {
	if o.EditCount == 0 {
		return nil
	}
	var closed []struct {
		ID     uuid.UUID
		LinkID *string
	}
	err := u.Tx().Raw(`UPDATE order_payment_links SET status = ?, cancelled_at = ? WHERE order_id = ? AND status = ?
		RETURNING id, link_id`, models.LinkCancelled, time.Now().UTC(), o.ID, models.LinkOpen).Scan(&closed).Error
	if err != nil {
		return fmt.Errorf("order.close_links: %w", err)
	}
	for _, l := range closed {
		if l.LinkID == nil {
			// Its gateway link is still being made: LinkBalance sees the
			// row cancelled when it records the link, and queues the cancel.
			continue
		}
		id := l.ID.String()
		u.AfterCommit("order.cancel_link:"+id, func(ctx context.Context, q tasks.Enqueuer, log *slog.Logger) {
			QueueLinkCancel(ctx, q, log, id)
		})
	}
	return nil
}

// QueueLinkCancel queues the gateway cancel of balance link row id; a
// failure is logged (reconcile cancels it later).
func QueueLinkCancel(ctx context.Context, q tasks.Enqueuer, log *slog.Logger, id string) {
	task, opts := tasks.NewCancelPaymentLinkTask(id)
	if err := tasks.Enqueue(ctx, q, task, opts...); err != nil {
		log.WarnContext(ctx, "payment link cancel not queued; reconcile will cancel it at the gateway", "link", id, "err", err)
	}
}
