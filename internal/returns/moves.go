package returns

import (
	"context"
	"fmt"
	"slices"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/fulfillment"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Approve moves a requested return to approved and emails the customer.
// Errors: NOT_FOUND, CONFLICT (not requested; units of it no longer out:
// checkStillOut).
func (s *Service) Approve(ctx context.Context, id uuid.UUID) (*Return, error) {
	return s.change(ctx, id, func(u *uow.Unit, o *models.Order, r *models.Return) error {
		if err := checkMove(r.Status, models.ReturnApproved); err != nil {
			return err
		}
		if err := checkStillOut(u.Tx(), o, r); err != nil {
			return err
		}
		if err := stageStatus(u, r, models.ReturnApproved, nil); err != nil {
			return err
		}
		stageEmail(u, EmailApproved, r)
		return nil
	})
}

// checkStillOut refuses to approve return r of the locked order o when a
// line of it has more units in live returns (r's included) than shipped
// and not cancelled: a fulfilment cancelled under the return (possible
// before such cancels were refused) already put those units back on hand,
// and approving would let them come back twice. It counts as loadLines
// does, in one statement: an approval is one of four steps of every
// return. Errors: CONFLICT naming the line.
func checkStillOut(tx *gorm.DB, o *models.Order, r *models.Return) error {
	var over []struct {
		OrderItemID   uuid.UUID
		Shipped, Live int
	}
	// An order shipped before fulfilments existed has none: all its units
	// count as shipped (fulfilled).
	legacy := o.Status == models.OrderShipped || o.Status == models.OrderDelivered
	err := tx.Raw(overReturnedSQL, map[string]any{"order": o.ID, "return": r.ID, "legacy": legacy,
		"fulfilled": fulfillment.FulfilledStatuses, "open": []string{models.ReturnRequested, models.ReturnApproved},
		"live": liveStatuses}).Scan(&over).Error
	if err != nil {
		return fmt.Errorf("returns.still_out: %w", err)
	}
	if len(over) == 0 {
		return nil
	}
	l := over[0]
	return apperr.Conflictf("line %s has %d units in returns but only %d shipped and not cancelled; reject this return or lower it",
		l.OrderItemID, l.Live, l.Shipped).
		WithDetails(map[string]any{"orderItemId": l.OrderItemID.String(), "shipped": l.Shipped, "inReturns": l.Live})
}

// overReturnedSQL finds the lines of return @return whose units in live
// returns of order @order exceed their shipped units (see checkStillOut).
const overReturnedSQL = `SELECT l.order_item_id, l.shipped, l.live FROM (
	SELECT oi.id AS order_item_id,
		CASE WHEN NOT EXISTS (SELECT 1 FROM fulfillments WHERE order_id = @order)
			THEN CASE WHEN @legacy THEN oi.quantity ELSE 0 END
			ELSE coalesce((SELECT sum(fi.quantity) FROM fulfillment_items fi JOIN fulfillments f ON f.id = fi.fulfillment_id
				WHERE f.order_id = @order AND fi.order_item_id = oi.id AND f.status IN @fulfilled), 0) END AS shipped,
		coalesce((SELECT sum(CASE WHEN rr.status IN @open THEN ri.quantity ELSE ri.received_quantity END)
			FROM return_items ri JOIN returns rr ON rr.id = ri.return_id
			WHERE rr.order_id = @order AND ri.order_item_id = oi.id AND rr.status IN @live), 0) AS live
	FROM order_items oi
	WHERE oi.order_id = @order AND oi.id IN (SELECT order_item_id FROM return_items WHERE return_id = @return)
) l WHERE l.live > l.shipped ORDER BY l.order_item_id LIMIT 1`

// Reject moves a requested return to rejected with the reason the customer
// is emailed. Errors: NOT_FOUND, CONFLICT (not requested).
func (s *Service) Reject(ctx context.Context, id uuid.UUID, reason string) (*Return, error) {
	return s.change(ctx, id, func(u *uow.Unit, _ *models.Order, r *models.Return) error {
		if err := stageStatus(u, r, models.ReturnRejected, map[string]any{"reject_reason": reason}); err != nil {
			return err
		}
		stageEmail(u, EmailRejected, r)
		return nil
	})
}

// Cancel moves an approved return that will not come back to cancelled;
// its units may be returned again. Errors: NOT_FOUND, CONFLICT.
func (s *Service) Cancel(ctx context.Context, id uuid.UUID) (*Return, error) {
	return s.change(ctx, id, func(u *uow.Unit, _ *models.Order, r *models.Return) error {
		return stageStatus(u, r, models.ReturnCancelled, nil)
	})
}

// ReceivedItem is how many units of one line of the return came back, and
// whether they go back on hand.
type ReceivedItem struct {
	OrderItemID uuid.UUID
	Quantity    int
	Restock     bool
}

// ReceiveInput records the parcel of an approved return.
type ReceiveInput struct {
	// Items lists the lines that came back; a line of the return not
	// listed came back with no unit (its units may be returned again).
	Items []ReceivedItem
	// RefundShipping adds the order's shipping cost to the refund, unless
	// another return of the order refunds it already.
	RefundShipping bool
	// LocationID is where restocked units go back on hand; uuid.Nil: the
	// location the order's latest live fulfilment left from (else the
	// default location).
	LocationID uuid.UUID
}

// Receive moves an approved return to received: the received units are
// valued (unitsRefund: what the customer paid for them), the restocked ones
// go back on hand, and return.received is published. Errors: NOT_FOUND,
// CONFLICT (not approved), VALIDATION_ERROR (a line not in the return, more
// units than it holds, restocking a line whose variant is gone).
func (s *Service) Receive(ctx context.Context, id uuid.UUID, in ReceiveInput) (*Return, error) {
	if len(in.Items) == 0 {
		return nil, apperr.Invalid("items", "must name at least one received line")
	}
	return s.change(ctx, id, func(u *uow.Unit, o *models.Order, r *models.Return) error {
		if err := checkMove(r.Status, models.ReturnReceived); err != nil {
			return err
		}
		lines, err := loadLines(u.Tx(), o)
		if err != nil {
			return err
		}
		got, err := receivedOf(in, r, lines)
		if err != nil {
			return err
		}
		var back []stock.Item
		var backLines []uuid.UUID
		var total money.Amount
		for i := range r.Items {
			ri := &r.Items[i]
			g := got[ri.OrderItemID]
			l := lines[ri.OrderItemID]
			ri.ReceivedQuantity, ri.RestockedQuantity = g.Quantity, 0
			ri.RefundAmount = unitsRefund(l.item.LineTotal, l.item.Quantity, l.received, g.Quantity)
			if g.Restock && g.Quantity > 0 {
				ri.RestockedQuantity = g.Quantity
				back = append(back, stock.Item{VariantID: *l.item.VariantID, Quantity: g.Quantity})
				backLines = append(backLines, ri.OrderItemID)
			}
			total += ri.RefundAmount
			if err := u.Updates(&models.ReturnItem{ReturnID: r.ID, OrderItemID: ri.OrderItemID},
				map[string]any{"received_quantity": ri.ReceivedQuantity, "restocked_quantity": ri.RestockedQuantity,
					"refund_amount": ri.RefundAmount}); err != nil {
				return fmt.Errorf("returns.receive: %w", err)
			}
		}
		shipping := false
		if in.RefundShipping {
			if shipping, err = shippingUnrefunded(u.Tx(), o, r.ID); err != nil {
				return err
			}
		}
		if shipping {
			total += o.ShippingCost
		}
		to, err := restockPlace(u.Tx(), o.ID, backLines, in.LocationID)
		if err != nil {
			return err
		}
		stock.StageRestock(u, to, back)
		r.RefundShipping, r.RefundAmount = shipping, total
		if err := stageStatus(u, r, models.ReturnReceived, map[string]any{"refund_shipping": shipping, "refund_amount": total,
			"restock_location_id": to.ID}); err != nil {
			return err
		}
		_, err = outbox.Stage(u, outbox.Draft{Type: outbox.ReturnReceived, Data: newEventData(o, r)})
		return err
	})
}

// receivedOf checks the received lines against return r (and against the
// units still out: checkReceivable) and returns them by order line.
func receivedOf(in ReceiveInput, r *models.Return, lines map[uuid.UUID]*line) (map[uuid.UUID]ReceivedItem, error) {
	asked := map[uuid.UUID]int{}
	for _, ri := range r.Items {
		asked[ri.OrderItemID] = ri.Quantity
	}
	got := map[uuid.UUID]ReceivedItem{}
	for i, it := range in.Items {
		field := fmt.Sprintf("items[%d]", i)
		q, ok := asked[it.OrderItemID]
		switch {
		case !ok:
			return nil, apperr.Invalid(field+".orderItemId", "is not a line of this return")
		case got[it.OrderItemID].OrderItemID != uuid.Nil:
			return nil, apperr.Invalid(field+".orderItemId", "names a line already listed")
		case it.Quantity < 0 || it.Quantity > q:
			return nil, apperr.Invalid(field+".quantity", fmt.Sprintf("must be between 0 and %d, the units of this line in the return", q))
		case it.Restock && it.Quantity > 0 && lines[it.OrderItemID].item.VariantID == nil:
			return nil, apperr.Invalid(field+".restock", "the line's variant no longer exists; its units cannot go back on hand")
		}
		if err := checkReceivable(field, it.Quantity, q, lines[it.OrderItemID]); err != nil {
			return nil, err
		}
		got[it.OrderItemID] = it
	}
	return got, nil
}

// shippingUnrefunded reports whether no other return of order o refunds its
// shipping already; an order without shipping cost has none to refund.
func shippingUnrefunded(tx *gorm.DB, o *models.Order, returnID uuid.UUID) (bool, error) {
	if o.ShippingCost <= 0 {
		return false, nil
	}
	var n int64
	if err := tx.Model(&models.Return{}).Where("order_id = ? AND id <> ? AND refund_shipping AND status IN ?",
		o.ID, returnID, []string{models.ReturnReceived, models.ReturnRefunded}).Count(&n).Error; err != nil {
		return false, fmt.Errorf("returns.shipping: %w", err)
	}
	return n == 0, nil
}

// checkReceivable refuses to receive more units of line l than are out:
// shipped and not cancelled, less those other live returns hold (the
// return being received holds asked of them). A fulfilment cancelled under
// the return (before that was refused) put its units back on hand
// already. Errors: VALIDATION_ERROR on field's quantity, details
// receivable.
func checkReceivable(field string, got, asked int, l *line) error {
	others := l.live - asked
	receivable := max(l.shipped-others, 0)
	if got <= receivable {
		return nil
	}
	return apperr.Invalid(field+".quantity", fmt.Sprintf("must be at most %d: %d shipped and not cancelled, %d in other returns",
		receivable, l.shipped, others)).
		WithDetails(map[string]any{"field": field + ".quantity", "issue": "more units than are out",
			"receivable": receivable, "shipped": l.shipped, "inOtherReturns": others})
}

// restockPlace is the location a return of order orderID restocks the
// restocked order lines items into: want when named, else the location of
// the latest live fulfilment that shipped units of those lines (the
// fulfilment's location, as the units came from there; a shipment
// cancelled or returned to origin is not live: its units are back
// already, and they are not the ones the customer returns), else of the
// order's latest live fulfilment, else the default one. Errors:
// VALIDATION_ERROR naming locationId.
func restockPlace(tx *gorm.DB, orderID uuid.UUID, items []uuid.UUID, want uuid.UUID) (stock.Place, error) {
	if want == uuid.Nil {
		var last []struct{ LocationID uuid.UUID }
		if err := tx.Raw(`SELECT f.location_id FROM fulfillments f
			WHERE f.order_id = ? AND f.status NOT IN ? AND f.location_id IS NOT NULL
			ORDER BY EXISTS (SELECT 1 FROM fulfillment_items fi WHERE fi.fulfillment_id = f.id AND fi.order_item_id IN ?) DESC,
				f.created_at DESC, f.id DESC LIMIT 1`, orderID, []string{models.ShipmentCancelled, models.ShipmentReturnedToOrigin},
			inList(items)).Scan(&last).Error; err != nil {
			return stock.Place{}, fmt.Errorf("returns.restock_place: %w", err)
		}
		if len(last) == 1 {
			want = last[0].LocationID
		}
	}
	return stock.LockPlace(tx, want)
}

// inList is ids as the argument of an IN (?): a copy, never empty (an
// empty IN () is a syntax error; uuid.Nil matches no row).
func inList(ids []uuid.UUID) []uuid.UUID {
	return append(slices.Clone(ids), uuid.Nil)
}
