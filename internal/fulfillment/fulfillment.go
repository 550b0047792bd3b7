package fulfillment

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/analytics"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Service creates, delivers and cancels fulfilments.
type Service struct {
	db    *gorm.DB
	queue tasks.Enqueuer
	log   *slog.Logger
	// invoices issues the shipments' tax documents (UseInvoices).
	invoices Invoices
	// returns, when set, holds back the cancel of returned units (UseReturns).
	returns Returns
}

// New returns the service; queue receives the outbox and email nudges that
// follow a change.
func New(db *gorm.DB, queue tasks.Enqueuer, log *slog.Logger) *Service {
	return &Service{db: db, queue: queue, log: log}
}

// Item is a quantity of one order line.
type Item struct {
	OrderItemID uuid.UUID
	Quantity    int
}

// Shipment is a fulfilment asked for by an administrator.
type Shipment struct {
	// Items are the units shipped; nil ships every unfulfilled unit.
	Items          []Item
	Carrier        string
	TrackingNumber string
	TrackingURL    string
	// Notify emails the customer the tracking (notifyCustomer).
	Notify  bool
	AdminID uuid.UUID
	// Note is the order history's note; empty names the fulfilment.
	Note string
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
	err := s.change(ctx, orderID, &o, func(tx *gorm.DB) error {
		if err := refusedRefunded(&o); err != nil {
			return err
		}
		if o.Status != models.OrderConfirmed && o.Status != models.OrderProcessing {
			return apperr.Conflictf("an order that is %s cannot be fulfilled", o.Status).
				WithDetails(map[string]any{"status": o.Status, "allowed": []string{models.OrderConfirmed, models.OrderProcessing}})
		}
		var err error
		if f, err = s.create(tx, &o, sh); err != nil {
			return err
		}
		return idempotency.RecordChange(ctx, tx, f.ID.String())
	})
	if err != nil {
		return nil, err
	}
	if sh.Notify {
		s.nudgeEmails(ctx)
	}
	return f, nil
}

// Deliver marks fulfilment id of order orderID delivered; the order is
// delivered once every unit shipped and every live fulfilment is delivered.
// Errors: NOT_FOUND (also a fulfilment of another order), CONFLICT (not
// shipped).
func (s *Service) Deliver(ctx context.Context, orderID, id, adminID uuid.UUID) (*models.Fulfillment, error) {
	var f models.Fulfillment
	var o models.Order
	err := s.change(ctx, orderID, &o, func(tx *gorm.DB) error {
		if err := load(tx, o.ID, id, &f); err != nil {
			return err
		}
		if f.Status != models.ShipmentShipped {
			return illegal(&f, "delivered")
		}
		if err := deliver(tx, &f); err != nil {
			return err
		}
		return resettle(tx, &o, adminID, fmt.Sprintf("fulfilment %s delivered", f.ID))
	})
	if err != nil {
		return nil, err
	}
	return &f, nil
}

// Cancel cancels fulfilment id of order orderID while it is shipped: its
// units go back on hand and into the order's commitment (released at once
// when the order is refunded in full: ReleaseUnshipped), and both statuses
// are recomputed. Errors: NOT_FOUND, CONFLICT (delivered or cancelled; units
// of it in a live return, details naming the return: checkNotReturned).
func (s *Service) Cancel(ctx context.Context, orderID, id, adminID uuid.UUID) (*models.Fulfillment, error) {
	var f models.Fulfillment
	var o models.Order
	err := s.change(ctx, orderID, &o, func(tx *gorm.DB) error {
		if err := load(tx, o.ID, id, &f); err != nil {
			return err
		}
		if f.Status != models.ShipmentShipped {
			return illegal(&f, "cancelled")
		}
		if err := s.checkNotReturned(tx, o.ID, &f); err != nil {
			return err
		}
		items, err := stockOf(tx, f.Items)
		if err != nil {
			return err
		}
		if err := stock.Unship(tx, items); err != nil {
			return err
		}
		now := time.Now().UTC()
		if err := tx.Model(&f).Updates(map[string]any{"status": models.ShipmentCancelled, "cancelled_at": now, "updated_at": now}).Error; err != nil {
			return fmt.Errorf("fulfillment.cancel: %w", err)
		}
		f.Status, f.CancelledAt, f.UpdatedAt = models.ShipmentCancelled, &now, now
		if err := s.creditCancelled(tx, &o, &f); err != nil {
			return err
		}
		note := fmt.Sprintf("fulfilment %s cancelled", f.ID)
		if err := resettle(tx, &o, adminID, note); err != nil {
			return err
		}
		if o.PaymentStatus == models.PaymentRefunded {
			// The order's money went back: the units are not to ship again,
			// so they are released rather than committed for ever.
			return s.ReleaseUnshipped(tx, &o, order.StatusChange{Note: note, AdminID: adminID})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &f, nil
}

// Move takes over PATCH .../status (orders.Fulfilments): shipped creates one
// fulfilment of every unfulfilled unit without tracking and without an
// email; delivered delivers every live fulfilment; cancelling an order with
// shipped units is refused (its fulfilments are cancelled first).
func (s *Service) Move(tx *gorm.DB, o *models.Order, ch order.StatusChange) (bool, error) {
	switch ch.Status {
	case models.OrderShipped:
		_, err := s.create(tx, o, Shipment{AdminID: ch.AdminID, Note: ch.Note})
		return true, err
	case models.OrderDelivered:
		var live []models.Fulfillment
		if err := tx.Where("order_id = ? AND status = ?", o.ID, models.ShipmentShipped).Find(&live).Error; err != nil {
			return true, fmt.Errorf("fulfillment.move: %w", err)
		}
		for i := range live {
			if err := deliver(tx, &live[i]); err != nil {
				return true, err
			}
		}
		return true, order.Record(tx, o, ch)
	case models.OrderCancelled:
		if o.FulfillmentStatus != models.FulfillmentUnfulfilled {
			return true, apperr.Conflictf("an order with shipped units cannot be cancelled; cancel its fulfilments first").
				WithDetails(map[string]any{"from": o.Status, "to": ch.Status, "fulfillmentStatus": o.FulfillmentStatus})
		}
	}
	return false, nil
}

// change runs fn in a transaction holding order orderID (loaded into o)
// locked, then sends the events on their way.
func (s *Service) change(ctx context.Context, orderID uuid.UUID, o *models.Order, fn func(tx *gorm.DB) error) error {
	var from string
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(o, "id = ?", orderID).Error; err != nil {
			return err
		}
		from = o.Status
		return fn(tx)
	})
	if err != nil {
		return translate(err)
	}
	// A fulfilment moves the order between non-cancelled statuses only,
	// which no rollup holds (analytics.Affects); cancelling the last units
	// of an order cancels it, which they do.
	if analytics.Affects(from, o.Status) {
		analytics.Touch(ctx, s.queue, s.log, o.CreatedAt)
	}
	outbox.Nudge(ctx, s.queue, s.log)
	return nil
}

// translate maps a failed change: a stock counter CHECK refusing a move
// means the counters drifted (reconcile repairs them).
func translate(err error) error {
	if e := invoice.SeriesFull(err); e != nil {
		return e
	}
	if database.PgCode(err) == database.CheckViolation {
		return apperr.Wrap(apperr.Conflict, "the stock counters of this order's variants are out of step; run reconcile", err)
	}
	return database.Translate(err, "order")
}

// load reads fulfilment id of order orderID with its items; one of another
// order is NOT_FOUND.
func load(tx *gorm.DB, orderID, id uuid.UUID, f *models.Fulfillment) error {
	err := tx.Preload("Items").Take(f, "id = ? AND order_id = ?", id, orderID).Error
	if database.IsNotFound(err) {
		return apperr.NotFoundf("fulfillment")
	}
	return err
}

// illegal is the CONFLICT for a move a fulfilment in its status cannot make.
func illegal(f *models.Fulfillment, to string) error {
	return apperr.Conflictf("a %s fulfilment cannot be %s", f.Status, to).
		WithDetails(map[string]any{"status": f.Status, "to": to})
}

// deliver marks the shipped fulfilment f delivered.
func deliver(tx *gorm.DB, f *models.Fulfillment) error {
	now := time.Now().UTC()
	if err := tx.Model(f).Updates(map[string]any{"status": models.ShipmentDelivered, "delivered_at": now, "updated_at": now}).Error; err != nil {
		return fmt.Errorf("fulfillment.deliver: %w", err)
	}
	f.Status, f.DeliveredAt, f.UpdatedAt = models.ShipmentDelivered, &now, now
	return nil
}

// line is an order line's units and what is left to ship of them.
type line struct {
	ID        uuid.UUID
	VariantID *uuid.UUID
	// Quantity is the units to ship: sold less cancelled before shipping.
	Quantity int
	Left     int
	// Sold is the units sold, which the line's amounts are for.
	Sold int
	// What the line was sold for, and when the store's tax identity was
	// last set (nil: none), for the shipment's tax invoice.
	Title, SKU, HSNCode                  string
	UnitPrice, DiscountAmount, LineTotal money.Amount
	GSTRate                              money.Rate
	TaxAmount                            money.Amount
	TaxSettingsAt                        *time.Time
}

// lines returns order orderID's lines with their unfulfilled units (those
// neither cancelled nor in a fulfilment of fulfilledStatuses), in one
// statement. The shipped
// units are summed from the order's own fulfilments (fulfillments_order_idx),
// not per line: a sub-query per line let the planner, with statistics taken
// while the table was small, hash-join each line with every fulfilment of
// the shop (a sequential scan of 4,880 of them by the end of the bench's
// burst, 1.8 ms; mean 0.27 ms over the burst against 0.06 ms now).
func lines(tx *gorm.DB, orderID uuid.UUID) ([]line, error) {
	var ls []line
	err := tx.Raw(`SELECT i.id, i.variant_id, i.quantity - i.cancelled_quantity AS quantity,
			i.quantity - i.cancelled_quantity - coalesce(s.units, 0) AS "left", i.quantity AS sold,
			i.title, i.sku, i.hsn_code, i.unit_price, i.discount_amount, i.line_total, i.gst_rate, i.tax_amount,
			(SELECT updated_at FROM tax_settings) AS tax_settings_at
		FROM order_items i LEFT JOIN (
			SELECT fi.order_item_id, sum(fi.quantity) AS units
			FROM fulfillments f JOIN fulfillment_items fi ON fi.fulfillment_id = f.id
			WHERE f.order_id = ? AND f.status IN ? GROUP BY fi.order_item_id) s ON s.order_item_id = i.id
		WHERE i.order_id = ? ORDER BY i.created_at, i.id`,
		orderID, fulfilledStatuses, orderID).Scan(&ls).Error
	if err != nil {
		return nil, fmt.Errorf("fulfillment.lines: %w", err)
	}
	return ls, nil
}

// status is the fulfillment_status of lines.
func status(ls []line) string {
	total, left := 0, 0
	for _, l := range ls {
		total += l.Quantity
		left += l.Left
	}
	switch {
	case left == 0 && total > 0:
		return models.FulfillmentFulfilled
	case left < total:
		return models.FulfillmentPartiallyFulfilled
	}
	return models.FulfillmentUnfulfilled
}

// pick resolves the shipment's items against the order's lines: every
// unfulfilled unit when none are named.
func pick(ls []line, want []Item) ([]Item, error) {
	if want == nil {
		var all []Item
		for _, l := range ls {
			if l.Left > 0 {
				all = append(all, Item{OrderItemID: l.ID, Quantity: l.Left})
			}
		}
		if len(all) == 0 {
			return nil, apperr.Conflictf("no unit of this order is left to ship")
		}
		return all, nil
	}
	byID := make(map[uuid.UUID]line, len(ls))
	for _, l := range ls {
		byID[l.ID] = l
	}
	seen := map[uuid.UUID]bool{}
	for i, it := range want {
		field := fmt.Sprintf("items[%d]", i)
		l, ok := byID[it.OrderItemID]
		switch {
		case !ok:
			return nil, apperr.Invalid(field+".orderItemId", "is not a line of this order")
		case seen[it.OrderItemID]:
			return nil, apperr.Invalid(field+".orderItemId", "is named twice")
		case it.Quantity > l.Left:
			e := apperr.Invalid(field+".quantity", fmt.Sprintf("is more than the %d unfulfilled units of this line", l.Left))
			e.Details["unfulfilled"] = l.Left
			return nil, e
		}
		seen[it.OrderItemID] = true
	}
	return want, nil
}

// create ships sh of the locked order o (confirmed or processing): the
// fulfilment's rows, its units off on-hand and committed stock, the order's
// statuses and history, the events, the email row and the administrator's
// audit entry (audit.Stage), and its tax invoice (stageInvoice, numbered at
// commit). Everything after the read of the lines is one statement
// (database.Batch): with the order's lock, begin and commit, a fulfilment
// is five round trips to Postgres and one commit, with invoicing or not.
func (s *Service) create(tx *gorm.DB, o *models.Order, sh Shipment) (*models.Fulfillment, error) {
	if err := refusedRefunded(o); err != nil {
		return nil, err
	}
	ls, err := lines(tx, o.ID)
	if err != nil {
		return nil, err
	}
	items, err := pick(ls, sh.Items)
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	f := models.Fulfillment{ID: uuid.New(), OrderID: o.ID, Status: models.ShipmentShipped, Carrier: sh.Carrier,
		TrackingNumber: sh.TrackingNumber, TrackingURL: sh.TrackingURL, ShippedAt: now, CreatedAt: now, UpdatedAt: now}
	if sh.AdminID != uuid.Nil {
		f.AdminID = &sh.AdminID
	}
	var b database.Batch
	b.Insert("fulfillments", []string{"id", "order_id", "status", "carrier", "tracking_number", "tracking_url", "admin_id",
		"shipped_at", "created_at", "updated_at"},
		[]any{f.ID, f.OrderID, f.Status, f.Carrier, f.TrackingNumber, f.TrackingURL, f.AdminID, f.ShippedAt, f.CreatedAt, f.UpdatedAt})
	rows := make([][]any, len(items))
	for i, it := range items {
		f.Items = append(f.Items, models.FulfillmentItem{FulfillmentID: f.ID, OrderItemID: it.OrderItemID, Quantity: it.Quantity})
		rows[i] = []any{f.ID, it.OrderItemID, it.Quantity}
	}
	b.Insert("fulfillment_items", []string{"fulfillment_id", "order_item_id", "quantity"}, rows...)
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
	stock.StageShip(&b, units)
	if sh.Notify {
		stageEmail(&b, o, &f)
	}
	note := sh.Note
	if note == "" {
		note = "fulfilment " + f.ID.String()
	}
	// At least this fulfilment is shipped and open. Its event names the
	// order's fulfillment status after it, which ls now gives.
	created := outbox.Draft{Type: outbox.OrderFulfillmentCreated, Data: newCreatedEvent(o, &f, status(ls))}
	ctx := tx.Statement.Context
	if err := settle(ctx, &b, o, ls, 1, sh.AdminID, note, created); err != nil {
		return nil, err
	}
	if err := audit.Stage(ctx, &b, f.ID.String()); err != nil {
		return nil, err
	}
	if err := s.stageInvoice(tx, &b, o, &f, ls, shipped); err != nil {
		return nil, err
	}
	if err := b.Exec(tx); err != nil {
		return nil, fmt.Errorf("fulfillment.create: %w", err)
	}
	return &f, nil
}

// refusedRefunded is the CONFLICT for fulfilling an order refunded in
// full. Its unshipped units were released when the refund completed
// (ReleaseUnshipped); an order refunded before that still holds them, and
// shipping goods whose money went back is never meant: they are cancelled
// instead (CancelUnfulfilled).
func refusedRefunded(o *models.Order) error {
	if o.PaymentStatus != models.PaymentRefunded {
		return nil
	}
	return apperr.Conflictf("a fully refunded order cannot be fulfilled; cancel its unshipped units instead").
		WithDetails(map[string]any{"paymentStatus": o.PaymentStatus})
}

// stockOf returns the variant units of fulfilment items (lines whose variant
// was deleted hold no stock).
func stockOf(tx *gorm.DB, items []models.FulfillmentItem) ([]stock.Item, error) {
	ids := make([]uuid.UUID, len(items))
	qty := make(map[uuid.UUID]int, len(items))
	for i, it := range items {
		ids[i] = it.OrderItemID
		qty[it.OrderItemID] = it.Quantity
	}
	var rows []struct {
		ID        uuid.UUID
		VariantID uuid.UUID
	}
	if err := tx.Model(&models.OrderItem{}).Select("id", "variant_id").Where("id IN ? AND variant_id IS NOT NULL", ids).
		Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("fulfillment.stock: %w", err)
	}
	out := make([]stock.Item, len(rows))
	for i, r := range rows {
		out[i] = stock.Item{VariantID: r.VariantID, Quantity: qty[r.ID]}
	}
	return out, nil
}

// resettle reads the locked order's lines and open fulfilments after a
// change of its fulfilments and settles it (see settle).
func resettle(tx *gorm.DB, o *models.Order, adminID uuid.UUID, note string) error {
	ls, err := lines(tx, o.ID)
	if err != nil {
		return err
	}
	var open int64
	if err := tx.Model(&models.Fulfillment{}).Where("order_id = ? AND status = ?", o.ID, models.ShipmentShipped).
		Count(&open).Error; err != nil {
		return fmt.Errorf("fulfillment.settle: %w", err)
	}
	var b database.Batch
	ctx := tx.Statement.Context
	if err := settle(ctx, &b, o, ls, open, adminID, note); err != nil {
		return err
	}
	if err := audit.Stage(ctx, &b, ""); err != nil {
		return err
	}
	if err := b.Exec(tx); err != nil {
		return fmt.Errorf("fulfillment.settle: %w", err)
	}
	return nil
}

// settle sets the locked order's fulfillment_status from its lines ls (with
// open fulfilments still shipped, not delivered) and moves its status to
// match, each move in the history with note: confirmed → processing once
// anything ships, → shipped once everything has, → delivered once every
// live fulfilment is, and a shipped order whose fulfilment was cancelled
// back to processing, staged in b. The order row is updated once
// (order.RecordPath).
func settle(ctx context.Context, b *database.Batch, o *models.Order, ls []line, open int64, adminID uuid.UUID, note string, then ...outbox.Draft) error {
	fs := status(ls)
	var also map[string]any
	if fs != o.FulfillmentStatus {
		also = map[string]any{"fulfillment_status": fs}
	}
	if err := order.StagePath(ctx, b, o, settledPath(o.Status, fs, open), note, adminID, also, then...); err != nil {
		return err
	}
	o.FulfillmentStatus = fs
	return nil
}

// settledPath is the status moves (see settle) of an order in status whose
// fulfillment status is fs with open fulfilments still shipped.
func settledPath(status, fs string, open int64) []string {
	var path []string
	switch {
	case fs == models.FulfillmentFulfilled && open == 0:
		path = []string{models.OrderProcessing, models.OrderShipped, models.OrderDelivered}
	case fs == models.FulfillmentFulfilled:
		path = []string{models.OrderProcessing, models.OrderShipped}
	default:
		path = []string{models.OrderProcessing}
	}
	if target := path[len(path)-1]; status == models.OrderShipped && target == models.OrderProcessing {
		return []string{target}
	}
	var steps []string
	cur := status
	for _, st := range path {
		if order.Allowed(cur, st) {
			steps, cur = append(steps, st), st
		}
	}
	return steps
}
