package returns

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// ItemInput is one line of a return request.
type ItemInput struct {
	OrderItemID uuid.UUID
	Quantity    int
	Reason      string
}

// RequestInput asks to send units of order OrderID back.
type RequestInput struct {
	OrderID uuid.UUID
	// CustomerID is the customer asking: only their own order, only
	// delivered units, within the return window. Nil for an administrator
	// (AdminID), who may return any shipped unit at any time.
	CustomerID *uuid.UUID
	AdminID    uuid.UUID
	Items      []ItemInput
	Note       string
}

// Request creates a return in status requested and publishes
// return.requested. Errors: NOT_FOUND (no such order, or another
// customer's), VALIDATION_ERROR (a line not of the order, a line twice, more
// units than delivered (shipped, for an administrator) less those in live
// returns), CONFLICT (a customer past RETURN_WINDOW_DAYS after delivery).
// A keyed request retried after its process died answers with the return
// it opened (see made).
func (s *Service) Request(ctx context.Context, in RequestInput) (*Return, error) {
	if len(in.Items) == 0 {
		return nil, apperr.Invalid("items", "must name at least one line")
	}
	if r, ok, err := s.made(ctx, in.OrderID); ok {
		return r, err
	}
	var id uuid.UUID
	err := s.units.Run(ctx, func(u *uow.Unit) error {
		var o models.Order
		if err := lockOrder(u.Tx(), in.OrderID, &o); err != nil {
			return err
		}
		if in.CustomerID != nil && o.CustomerID != *in.CustomerID {
			return apperr.Missing("order")
		}
		lines, err := loadLines(u.Tx(), &o)
		if err != nil {
			return err
		}
		if err := s.checkUnits(in, lines); err != nil {
			return err
		}
		now := time.Now().UTC()
		r := models.Return{ID: uuid.New(), OrderID: o.ID, CustomerID: o.CustomerID, Status: models.ReturnRequested,
			RequestedBy: "customer", Note: in.Note, CreatedAt: now, UpdatedAt: now}
		if in.CustomerID == nil {
			admin := in.AdminID
			r.RequestedBy, r.AdminID = "admin", &admin
		}
		for _, it := range in.Items {
			r.Items = append(r.Items, models.ReturnItem{ReturnID: r.ID, OrderItemID: it.OrderItemID, Quantity: it.Quantity, Reason: it.Reason})
		}
		if err := u.Create(&r); err != nil {
			return fmt.Errorf("returns.request: %w", err)
		}
		if err := u.Create(&r.Items); err != nil {
			return fmt.Errorf("returns.request: %w", err)
		}
		id = r.ID
		if _, err = outbox.Stage(u, outbox.Draft{Type: outbox.ReturnRequested, Data: newEventData(&o, &r)}); err != nil {
			return err
		}
		order.StageRollup(u, &o)
		return idempotency.RecordChange(u, r.ID.String())
	})
	if err != nil {
		return nil, database.Translate(err, "order")
	}
	return s.Get(ctx, id)
}

// checkUnits checks each requested line against what may still be
// returned: delivered (a customer) or shipped (an administrator) units less
// those in live returns; and, for a customer, the return window.
func (s *Service) checkUnits(in RequestInput, lines map[uuid.UUID]*line) error {
	seen := map[uuid.UUID]bool{}
	for i, it := range in.Items {
		field := fmt.Sprintf("items[%d]", i)
		l := lines[it.OrderItemID]
		if l == nil {
			return apperr.Invalid(field+".orderItemId", "is not a line of this order")
		}
		if seen[it.OrderItemID] {
			return apperr.Invalid(field+".orderItemId", "names a line already in this request")
		}
		seen[it.OrderItemID] = true
		if it.Quantity < 1 {
			return apperr.Invalid(field+".quantity", "must be at least 1")
		}
		sent, what := l.shipped, "shipped"
		if in.CustomerID != nil {
			sent, what = l.delivered, "delivered"
		}
		if left := sent - l.live; it.Quantity > left {
			return apperr.Invalid(field+".quantity", fmt.Sprintf("must be at most %d: %d %s, %d already in returns",
				max(left, 0), sent, what, l.live)).
				WithDetails(map[string]any{"field": field + ".quantity", "issue": "more units than can be returned",
					"returnable": max(left, 0), what: sent, "inReturns": l.live})
		}
		if in.CustomerID != nil && s.set.WindowDays >= 0 && l.deliveredAt != nil {
			closes := l.deliveredAt.Add(time.Duration(s.set.WindowDays) * 24 * time.Hour)
			if s.now().After(closes) {
				return apperr.Conflictf("the return window of %d days after delivery has closed", s.set.WindowDays).
					WithDetails(map[string]any{"orderItemId": it.OrderItemID.String(), "deliveredAt": l.deliveredAt.UTC(),
						"windowClosedAt": closes.UTC()})
			}
		}
	}
	return nil
}
