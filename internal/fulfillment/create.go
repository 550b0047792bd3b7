package fulfillment

import (
	"context"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Shipment is a fulfilment asked for by an administrator.
type Shipment struct {
	// Items are the units shipped; nil ships every unfulfilled unit.
	Items          []Item
	Carrier        string
	TrackingNumber string
	TrackingURL    string
	// Notify emails the customer the tracking (notifyCustomer).
	Notify bool
	By     audit.Actor
	// Note is the order history's note; empty names the fulfilment.
	Note string
	// LocationID is the stock location the units leave from; uuid.Nil:
	// the active one with the lowest priority number holding them all.
	LocationID uuid.UUID
	// RequireTracking refuses a shipment without carrier and tracking
	// number unless a courier books it (POST .../fulfillments).
	RequireTracking bool
	// VehicleNumber, TransporterID and DistanceKm are how the goods travel,
	// for an e-way bill (docs/DECISIONS.md "E-invoices and e-way bills").
	VehicleNumber, TransporterID *string
	DistanceKm                   *int
}

// Create ships sh of order orderID (docs/DECISIONS.md "Fulfilment") and returns the new
// fulfilment. Errors: NOT_FOUND, CONFLICT (order not confirmed or
// processing, or refunded in full; nothing left to ship; stock counters out
// of step),
// VALIDATION_ERROR (a line not of this order, more units than unfulfilled).
// A keyed request retried after its process died answers with the
// fulfilment it made (see made).
func (s *Service) Create(ctx context.Context, orderID uuid.UUID, sh Shipment) (*models.Fulfillment, error) {
	if f, ok, err := s.made(ctx, orderID); ok {
		return f, err
	}
	var f *models.Fulfillment
	var o models.Order
	err := s.change(ctx, orderID, &o, func(u *uow.Unit) error {
		if err := refusedRefunded(&o); err != nil {
			return err
		}
		if o.Status != models.OrderConfirmed && o.Status != models.OrderProcessing {
			return apperr.Conflictf("an order that is %s cannot be fulfilled", o.Status).
				WithDetails(map[string]any{"status": o.Status, "allowed": []string{models.OrderConfirmed, models.OrderProcessing}})
		}
		var err error
		if f, err = s.stageShipment(u, &o, sh); err != nil {
			return err
		}
		return idempotency.RecordChange(u, f.ID.String())
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// ShipRest is PATCH .../status to shipped (docs/DECISIONS.md
// "Fulfilment"): one fulfilment of every unfulfilled unit of order
// orderID, without tracking and without an email, with note in the
// history. It returns the order after it. Errors: NOT_FOUND, CONFLICT (not
// a move the order's status allows; refunded in full; stock counters out
// of step).
func (s *Service) ShipRest(ctx context.Context, orderID uuid.UUID, note string, by audit.Actor) (*models.Order, error) {
	if moved, ok, err := s.orderMoved(ctx, orderID); ok {
		return moved, err
	}
	var o models.Order
	err := s.change(ctx, orderID, &o, func(u *uow.Unit) error {
		if err := order.CheckMove(&o, models.OrderShipped); err != nil {
			return err
		}
		if _, err := s.stageShipment(u, &o, Shipment{Note: note, By: by}); err != nil {
			return err
		}
		return idempotency.RecordChange(u, o.ID.String())
	})
	if err != nil {
		return nil, err
	}
	return &o, nil
}

// stageShipment stages in u the shipment sh of the locked order o
// (confirmed or processing): the fulfilment's rows, its units off on-hand
// and committed stock, the order's statuses and history, the events, the
// email row and the administrator's audit entry, and its tax invoice
// (numbered at commit). Everything after the read of the lines is the
// unit's one statement at its commit, so what a fulfilment writes (with
// invoicing or not) adds no round trip to Postgres (the count is in
// docs/BENCHMARKS.md, "Figures behind code comments"; the lines' read
// brings the stock locations too). The units leave sh.LocationID, else the
// first active location (by priority) holding them all (chooseOrigin).
func (s *Service) stageShipment(u *uow.Unit, o *models.Order, sh Shipment) (*models.Fulfillment, error) {
	if err := refusedRefunded(o); err != nil {
		return nil, err
	}
	ls, err := linesToShip(u.Tx(), o.ID)
	if err != nil {
		return nil, err
	}
	items, err := chooseUnits(ls, sh.Items)
	if err != nil {
		return nil, err
	}
	places, err := originsOf(ls)
	if err != nil {
		return nil, err
	}
	// The lines as they are now, and the stock the shipment takes: read once
	// above, not again.
	shipped := make(map[uuid.UUID]int, len(items))
	for _, it := range items {
		shipped[it.OrderItemID] = it.Quantity
	}
	var units []stock.Item
	for i := range ls {
		q := shipped[ls[i].ID]
		ls[i].Left -= q
		if q > 0 && ls[i].VariantID != nil { // a deleted variant's line holds no stock
			units = append(units, stock.Item{VariantID: *ls[i].VariantID, Quantity: q})
		}
	}
	from, err := chooseOrigin(places, sh.LocationID, units)
	if err != nil {
		return nil, err
	}
	// At the precision Postgres keeps, so that the answer of a retry, read
	// back from the row (made), is the first answer.
	now := time.Now().UTC().Truncate(time.Microsecond)
	f := models.Fulfillment{ID: uuid.New(), OrderID: o.ID, Status: models.ShipmentShipped, Carrier: sh.Carrier,
		TrackingNumber: sh.TrackingNumber, TrackingURL: sh.TrackingURL, LocationID: &from.ID, ShippedAt: now, CreatedAt: now, UpdatedAt: now,
		VehicleNumber: sh.VehicleNumber, TransporterID: sh.TransporterID, DistanceKm: sh.DistanceKm}
	if sh.By.AdminID != uuid.Nil {
		f.AdminID = &sh.By.AdminID
	}
	for _, it := range items {
		f.Items = append(f.Items, models.FulfillmentItem{FulfillmentID: f.ID, OrderItemID: it.OrderItemID, Quantity: it.Quantity})
	}
	if err := u.Create(&f); err != nil {
		return nil, err
	}
	if err := u.Create(&f.Items); err != nil {
		return nil, err
	}
	if err := s.stageBooking(u, o, &f, from.PickupCode, sh); err != nil {
		return nil, err
	}
	holds, err := holdsOf(ls)
	if err != nil {
		return nil, err
	}
	var release []stock.HoldRelease
	if holds != nil {
		left := make(map[uuid.UUID]int, len(shipped))
		for _, l := range ls {
			if shipped[l.ID] > 0 {
				left[l.ID] = l.Left
			}
		}
		release = stock.Releases(holds, from.ID, left)
	}
	stock.StageShip(u, from.place(), units, release)
	if sh.Notify {
		if err := stageEmail(u, o, &f); err != nil {
			return nil, err
		}
	}
	note := sh.Note
	if note == "" {
		note = "fulfilment " + f.ID.String()
	}
	// At least this fulfilment is shipped and open. Its event names the
	// order's fulfillment status after it, which ls now gives.
	if err := stageOrderStatus(u, o, ls, 1, sh.By.AdminID, note); err != nil {
		return nil, err
	}
	created := outbox.Draft{Type: outbox.OrderFulfillmentCreated, Data: newCreatedEvent(o, &f, status(ls))}
	if _, err := outbox.Stage(u, created); err != nil {
		return nil, err
	}
	if err := audit.Stage(u, sh.By.Audit, f.ID.String()); err != nil {
		return nil, err
	}
	if err := s.stageInvoice(u, o, &f, ls, shipped, from.issuer()); err != nil {
		return nil, err
	}
	return &f, nil
}

// refusedRefunded is the CONFLICT for fulfilling an order refunded in
// full. Its unshipped units were released when the refund completed
// (StageReleaseUnshipped); an order refunded before that still holds them,
// and shipping goods whose money went back is never meant: they are
// cancelled instead (CancelUnfulfilled).
func refusedRefunded(o *models.Order) error {
	if o.PaymentStatus != models.PaymentRefunded {
		return nil
	}
	return apperr.Conflictf("a fully refunded order cannot be fulfilled; cancel its unshipped units instead").
		WithDetails(map[string]any{"paymentStatus": o.PaymentStatus})
}
