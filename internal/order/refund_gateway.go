package order

import (
	"cmp"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// A gateway refund moves pending → processed or failed. Whoever moves it
// (the request that made it, a later refund of the order settling it, or
// reconcile) holds the refund row's lock (FOR UPDATE) while it asks the
// gateway and then takes the order's lock to record the outcome, always in
// that order. A settler skips a row that is locked (SKIP LOCKED): its
// request is still waiting for the gateway. Every request for one refund
// carries the same idempotency key, so asking again never refunds twice.

// recordTimeout bounds the transaction that asks the gateway and records
// its answer; it outlives the admin's request, so an answer that came is
// recorded even when the client has gone.
const recordTimeout = time.Minute

// refundKey is the gateway idempotency key of refund id: 39 characters of
// [a-z0-9_], stable for the refund's life.
func refundKey(id uuid.UUID) string {
	return "refund_" + hex.EncodeToString(id[:])
}

// gatewayKeyOf is the key rf is asked with: the one derived from the
// admin's Idempotency-Key when there was one, else refundKey.
func gatewayKeyOf(rf *models.Refund) string {
	if rf.GatewayKey != nil {
		return *rf.GatewayKey
	}
	return refundKey(rf.ID)
}

// outcome is what the gateway said about a refund.
type outcome struct {
	// status is RefundProcessed, RefundFailed, or RefundPending (unknown).
	status string
	// providerID is the gateway's refund id, when there is one.
	providerID string
	err        error
	// processed and refused split a settled refund's amount between the
	// parts the gateway made and those it refused.
	processed, refused money.Amount
}

// refundAtGateway asks the gateway for the pending refund res.Refund and
// records its answer (effects: see Refund). Errors: SERVICE_UNAVAILABLE
// (refused, or unknown).
func (s *Service) refundAtGateway(ctx context.Context, res *RefundResult, effects RefundEffects) (*RefundResult, error) {
	var out outcome
	dbctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	err := s.units.Run(dbctx, func(u *uow.Unit) error {
		tx := u.Tx()
		rf, err := lockRefund(tx, res.Refund.ID, false)
		if err != nil {
			return err
		}
		if rf == nil {
			return apperr.Missing("order") // deleted meanwhile, with its refunds
		}
		if rf.Status != models.RefundPending {
			// Settled by someone else between our commit and this lock.
			out = outcome{status: rf.Status}
			res.Refund = *rf
			return tx.First(&res.Order, "id = ?", rf.OrderID).Error
		}
		out = s.askGateway(ctx, u, rf, res.Order.Currency, false)
		res.Refund = *rf
		return record(u, &res.Refund, out, &res.Order, effects)
	})
	if err != nil {
		return nil, translate(err)
	}
	log := s.log.With("order_id", res.Order.ID, "refund_id", res.Refund.ID, "amount", res.Refund.Amount.String())
	switch out.status {
	case models.RefundProcessed:
		if err := s.db.WithContext(dbctx).Where("refund_id = ?", res.Refund.ID).Order("position").Find(&res.Parts).Error; err != nil {
			return nil, fmt.Errorf("order.refund: parts: %w", err)
		}
		if out.refused > 0 {
			log.WarnContext(ctx, "gateway refused part of the refund", "refused", out.refused.String(), "err", out.err)
			return nil, apperr.Wrap(apperr.Unavailable, "the payment gateway refused part of the refund: "+out.processed.String()+
				" was refunded (and counted), "+out.refused.String()+" was not; check the order before asking for the rest", out.err).
				WithDetails(map[string]any{"refundId": res.Refund.ID.String(), "status": models.RefundProcessed,
					"amount": out.processed, "refused": out.refused})
		}
		return res, nil
	case models.RefundFailed:
		log.WarnContext(ctx, "gateway refused the refund", "err", out.err)
		return nil, apperr.Wrap(apperr.Unavailable, "the payment gateway refused the refund; nothing was refunded", out.err).
			WithDetails(map[string]any{"refundId": res.Refund.ID.String(), "status": models.RefundFailed})
	}
	log.WarnContext(ctx, "gateway refund outcome unknown; left pending", "err", out.err)
	return nil, apperr.Wrap(apperr.Unavailable, "the payment gateway did not answer in time; the refund is recorded as pending "+
		"and its outcome is being checked with the gateway; no other refund of this order is possible until then", out.err).
		WithDetails(map[string]any{"refundId": res.Refund.ID.String(), "status": models.RefundPending})
}

// resolvePendingOf resolves the pending refunds of order id with the
// gateway (effects: see Refund) before another refund is decided: the new
// request was made without knowing their outcome. One
// found processed makes the request a CONFLICT (it was decided on figures
// that have just changed: an admin retrying after a timeout would refund
// twice); one found failed lets it go on. A pending refund still being made
// by its own request is left to the CONFLICT that Refund answers for it.
// Errors: CONFLICT, SERVICE_UNAVAILABLE (the gateway cannot say yet).
func (s *Service) resolvePendingOf(ctx context.Context, id uuid.UUID, effects RefundEffects) error {
	var ids []uuid.UUID
	if err := s.db.WithContext(ctx).Model(&models.Refund{}).Where("order_id = ? AND status = ?", id, models.RefundPending).
		Order("created_at").Pluck("id", &ids).Error; err != nil {
		return fmt.Errorf("order.settle: %w", err)
	}
	for _, rid := range ids {
		rf, out, err := s.resolvePending(ctx, rid, effects)
		if err != nil {
			return translate(err)
		}
		switch {
		case rf == nil || out.status == models.RefundFailed:
			continue
		case out.status == models.RefundProcessed:
			return apperr.New(apperr.Conflict, "an earlier refund of this order, whose outcome was not known, has now been confirmed "+
				"by the payment gateway; nothing more was refunded: check the order and ask again if another refund is due").
				WithDetails(map[string]any{"refundId": rf.ID.String(), "status": models.RefundProcessed, "amount": rf.Amount})
		default:
			return apperr.Wrap(apperr.Unavailable, "the outcome of an earlier refund of this order is still being checked with "+
				"the payment gateway; no other refund is possible until it is settled", out.err).
				WithDetails(map[string]any{"refundId": rf.ID.String(), "status": models.RefundPending})
		}
	}
	return nil
}

// RefundSettlement counts what SettlePendingRefunds did.
type RefundSettlement struct {
	Processed int `json:"processed"`
	Failed    int `json:"failed"`
	// Pending is the refunds still without an answer (gateway unreachable,
	// or being made right now).
	Pending int `json:"pending"`
}

// settleBatch bounds the refunds SettlePendingRefunds looks at per run.
const settleBatch = 500

// SettlePendingRefunds asks the gateway about every pending refund (oldest
// first, up to 500 a run) and records its outcome (effects: see Refund);
// reconcile runs it, through package refund. Errors are database failures;
// a gateway that cannot answer leaves the refund pending and counted in
// Pending.
func (s *Service) SettlePendingRefunds(ctx context.Context, effects RefundEffects) (RefundSettlement, error) {
	var rep RefundSettlement
	var ids []uuid.UUID
	if err := s.db.WithContext(ctx).Model(&models.Refund{}).Where("status = ?", models.RefundPending).
		Order("created_at").Limit(settleBatch).Pluck("id", &ids).Error; err != nil {
		return rep, fmt.Errorf("order.settle_pending: %w", err)
	}
	for _, id := range ids {
		rf, out, err := s.resolvePending(ctx, id, effects)
		if err != nil {
			return rep, err
		}
		switch {
		case rf == nil:
			rep.Pending++ // its own request holds it
		case out.status == models.RefundProcessed:
			rep.Processed++
		case out.status == models.RefundFailed:
			rep.Failed++
		default:
			rep.Pending++
			s.log.WarnContext(ctx, "pending refund not settled: the gateway cannot say yet", "refund_id", id, "err", out.err)
		}
	}
	return rep, nil
}

// resolvePending asks the gateway about pending refund id and records the
// answer (effects: see Refund). The refund is nil when it is no longer
// pending or its lock is held (its own request is asking the gateway right
// now).
func (s *Service) resolvePending(ctx context.Context, id uuid.UUID, effects RefundEffects) (*models.Refund, outcome, error) {
	var rf *models.Refund
	var out outcome
	var order models.Order
	err := s.units.Run(ctx, func(u *uow.Unit) error {
		tx := u.Tx()
		var err error
		if rf, err = lockRefund(tx, id, true); err != nil || rf == nil || rf.Status != models.RefundPending {
			rf = nil
			return err
		}
		var currency string
		if err := tx.Raw(`SELECT currency FROM orders WHERE id = ?`, rf.OrderID).Scan(&currency).Error; err != nil {
			return fmt.Errorf("order.settle: %w", err)
		}
		out = s.askGateway(ctx, u, rf, currency, true)
		return record(u, rf, out, &order, effects)
	})
	if err != nil {
		return nil, outcome{}, err
	}
	if rf != nil && out.status != models.RefundPending {
		s.log.InfoContext(ctx, "pending refund settled with the gateway", "refund_id", rf.ID, "order_id", rf.OrderID,
			"status", out.status, "provider_refund_id", out.providerID)
	}
	return rf, out, nil
}

// lockRefund locks refund id; with skipLocked it returns nil instead of
// waiting for a lock someone holds.
func lockRefund(tx *gorm.DB, id uuid.UUID, skipLocked bool) (*models.Refund, error) {
	q := `SELECT * FROM refunds WHERE id = ? FOR UPDATE`
	if skipLocked {
		q += ` SKIP LOCKED`
	}
	var rf models.Refund
	if err := tx.Raw(q, id).Scan(&rf).Error; err != nil {
		return nil, fmt.Errorf("order.lock_refund: %w", err)
	}
	if rf.ID == uuid.Nil {
		return nil, nil
	}
	return &rf, nil
}

// askGateway makes each pending part of refund rf at the gateway (or,
// when settling, first looks for it among its payment's refunds by its key
// and makes it only if it is not there: the same key again, the gateway
// cannot make it twice), stages in u what each part became, and returns
// the refund's outcome: pending while any part's answer is unknown; else
// processed when any part was, failed when none was. A refund only partly
// processed has refused set to what its refused parts asked.
func (s *Service) askGateway(ctx context.Context, u *uow.Unit, rf *models.Refund, currency string, settling bool) outcome {
	parts, err := partsOf(u.Tx(), rf)
	if err != nil {
		return outcome{status: models.RefundPending, err: err}
	}
	if len(parts) == 0 {
		return outcome{status: models.RefundPending, err: errors.New("the pending refund names no gateway payment")}
	}
	var unknown error
	for i := range parts {
		p := &parts[i]
		if p.Status != models.RefundPending {
			continue
		}
		out := s.askPart(ctx, rf, p, currency, settling)
		if out.status == models.RefundPending {
			unknown = cmp.Or(unknown, out.err)
			if unknown == nil {
				unknown = errors.New("the gateway's answer is not known")
			}
			continue
		}
		p.Status = out.status
		if out.providerID != "" {
			p.ProviderRefundID = &out.providerID
		}
		if p.ID != uuid.Nil { // a refund from before parts has none stored
			if err := u.Updates(&models.RefundPart{ID: p.ID}, map[string]any{"status": p.Status, "provider_refund_id": p.ProviderRefundID}); err != nil {
				return outcome{status: models.RefundPending, err: err}
			}
		}
		if out.status == models.RefundFailed {
			s.log.WarnContext(ctx, "gateway refused a refund part", "refund_id", rf.ID, "payment_id", p.PaymentID,
				"amount", p.Amount.String(), "err", out.err)
		}
	}
	if unknown != nil {
		return outcome{status: models.RefundPending, err: unknown}
	}
	var res outcome
	var refusedErr error
	for _, p := range parts {
		switch p.Status {
		case models.RefundProcessed:
			res.processed += p.Amount
			if res.providerID == "" && p.ProviderRefundID != nil {
				res.providerID = *p.ProviderRefundID
			}
		case models.RefundFailed:
			res.refused += p.Amount
			refusedErr = cmp.Or(refusedErr, error(fmt.Errorf("payment %s: the gateway refused %s", p.PaymentID, p.Amount)))
		}
	}
	res.status = models.RefundProcessed
	if res.processed == 0 {
		res.status = models.RefundFailed
	}
	if res.refused > 0 {
		res.err = refusedErr
	}
	return res
}

// partsOf returns the parts of gateway refund rf, in order; a refund made
// before parts were stored is one part, its own payment and amount, with
// no id.
func partsOf(tx *gorm.DB, rf *models.Refund) ([]models.RefundPart, error) {
	var parts []models.RefundPart
	if err := tx.Where("refund_id = ?", rf.ID).Order("position").Find(&parts).Error; err != nil {
		return nil, fmt.Errorf("order.refund_parts: %w", err)
	}
	if len(parts) == 0 && rf.PaymentID != nil {
		parts = []models.RefundPart{{RefundID: rf.ID, PaymentID: *rf.PaymentID, Amount: rf.Amount, Status: rf.Status,
			GatewayKey: gatewayKeyOf(rf), ProviderRefundID: rf.ProviderRefundID}}
	}
	return parts, nil
}

// askPart makes part p of refund rf at the gateway, as askGateway says.
func (s *Service) askPart(ctx context.Context, rf *models.Refund, p *models.RefundPart, currency string, settling bool) outcome {
	if settling {
		list, err := s.provider.Refunds(ctx, p.PaymentID)
		if err != nil {
			return outcome{status: models.RefundPending, err: err}
		}
		if g, ok := gateway.FindRefund(list, p.GatewayKey); ok {
			return fromGateway(g)
		}
	}
	g, err := s.provider.Refund(ctx, gateway.RefundRequest{
		PaymentID: p.PaymentID, Amount: p.Amount, Currency: currency, Reason: rf.Reason, Key: p.GatewayKey,
	})
	switch {
	case errors.Is(err, gateway.ErrRefused):
		return outcome{status: models.RefundFailed, err: err}
	case err != nil:
		return outcome{status: models.RefundPending, err: err}
	}
	return fromGateway(g)
}

// fromGateway maps a gateway refund: one the gateway has accepted (pending
// or processed there) is money on its way back, so it counts as processed.
func fromGateway(g gateway.Refund) outcome {
	if g.Status == gateway.RefundFailed {
		return outcome{status: models.RefundFailed, providerID: g.ID, err: errors.New("the gateway reports the refund failed")}
	}
	return outcome{status: models.RefundProcessed, providerID: g.ID}
}

// record stages in u the gateway's answer on the locked pending refund rf
// and, for a processed one, its count on its order (locked here, loaded
// into o; effects: see Refund). An unknown answer changes nothing.
func record(u *uow.Unit, rf *models.Refund, out outcome, o *models.Order, effects RefundEffects) error {
	if out.status == models.RefundPending {
		return nil
	}
	if err := lockOrder(u.Tx(), rf.OrderID, o); err != nil {
		return err
	}
	rf.Status = out.status
	if out.providerID != "" {
		rf.ProviderRefundID = &out.providerID
	}
	cols := map[string]any{"status": rf.Status, "provider_refund_id": rf.ProviderRefundID}
	if out.status == models.RefundProcessed && out.refused > 0 {
		// Only what the gateway made counts (and is credited) as refunded.
		rf.Amount = out.processed
		cols["amount"] = rf.Amount
	}
	if err := u.Updates(&models.Refund{ID: rf.ID}, cols); err != nil {
		return fmt.Errorf("order.record_refund: %w", err)
	}
	if rf.Status != models.RefundProcessed {
		return nil
	}
	return stageCounted(u, o, rf, effects)
}
