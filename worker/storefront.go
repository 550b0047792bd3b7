package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

// registerStorefront mounts the customer email handlers and the checkout
// expiry sweep.
func registerStorefront(mux *asynq.ServeMux, a *app.App) {
	log := a.Log.With("component", "storefront")
	claims, sweeper := a.Claims, a.Checkout

	mux.HandleFunc(tasks.TypeOrderEmails, func(ctx context.Context, t *asynq.Task) error {
		var p tasks.OrderEmailsPayload
		if err := tasks.Decode(t, &p); err != nil {
			return err
		}
		id, err := uuid.Parse(p.OrderID)
		if err != nil {
			return fmt.Errorf("order emails: order id: %v: %w", err, asynq.SkipRetry)
		}
		return skipGone(claims.OrderEmails(ctx, id))
	})
	mux.HandleFunc(tasks.TypeClaimEmail, func(ctx context.Context, t *asynq.Task) error {
		var p tasks.ClaimEmailPayload
		if err := tasks.Decode(t, &p); err != nil {
			return err
		}
		id, err := uuid.Parse(p.CustomerID)
		if err != nil {
			return fmt.Errorf("claim email: customer id: %v: %w", err, asynq.SkipRetry)
		}
		return skipGone(claims.ClaimEmail(ctx, id))
	})
	mux.HandleFunc(tasks.TypeDuplicatePaymentEmail, func(ctx context.Context, t *asynq.Task) error {
		var p tasks.DuplicatePaymentEmailPayload
		if err := tasks.Decode(t, &p); err != nil {
			return err
		}
		id, err := uuid.Parse(p.CheckoutSessionID)
		if err != nil {
			return fmt.Errorf("duplicate payment email: session id: %v: %w", err, asynq.SkipRetry)
		}
		return skipGone(claims.DuplicatePaymentEmail(ctx, id))
	})
	mux.HandleFunc(tasks.TypeCheckoutExpire, func(ctx context.Context, t *asynq.Task) error {
		n, err := sweeper.ExpireDue(ctx, time.Now().UTC())
		if n > 0 {
			log.InfoContext(ctx, "checkout sessions expired", "count", n)
		}
		return err
	})
}

// skipGone turns "the record is gone" into a skipped task: retrying cannot help.
func skipGone(err error) error {
	if errors.Is(err, customer.ErrGone) {
		return fmt.Errorf("%v: %w", err, asynq.SkipRetry)
	}
	return err
}
