package fulfillment_test

import (
	"context"
	"slices"
	"testing"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/fulfillment"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm/clause"
)

// A case places an order (status, units per line), makes one change to it
// through the service, and checks the answer and what the change wrote:
// the order's statuses and history, the stock, the events, the rows and
// the nudges queued once it committed.
type scenario struct {
	name   string
	status string
	qty    []int
	// before runs the changes the case starts from.
	before func(t *testing.T, e *env, p placed)
	do     func(ctx context.Context, e *env, p placed) error
	want   func(t *testing.T, e *env, p placed, err error)
}

var admin = audit.Actor{AdminID: uuid.New()}

// ship is a Create of the named units (nil: every unit left).
func ship(items ...fulfillment.Item) func(ctx context.Context, e *env, p placed) error {
	return func(ctx context.Context, e *env, p placed) error {
		_, err := e.svc.Create(ctx, p.order.ID, fulfillment.Shipment{Items: items, Carrier: "Delhivery", TrackingNumber: "DL-1",
			By: admin})
		return err
	}
}

// shipBefore ships units of line i before the case's change.
func shipBefore(i, n int) func(t *testing.T, e *env, p placed) {
	return func(t *testing.T, e *env, p placed) {
		t.Helper()
		if err := ship(fulfillment.Item{OrderItemID: p.line(i), Quantity: n})(context.Background(), e, p); err != nil {
			t.Fatal(err)
		}
		e.q.take()
	}
}

// wantOrder checks the order's status and fulfillment status.
func wantOrder(t *testing.T, e *env, p placed, status, fs string) {
	t.Helper()
	o := e.orderNow(t, p.order.ID)
	if o.Status != status || o.FulfillmentStatus != fs {
		t.Fatalf("order %s / %s, want %s / %s", o.Status, o.FulfillmentStatus, status, fs)
	}
}

// wantStock checks variant i's on-hand and committed units.
func wantStock(t *testing.T, e *env, p placed, i, inventory, committed int) {
	t.Helper()
	if inv, com := e.stockNow(t, p.variants[i]); inv != inventory || com != committed {
		t.Fatalf("variant %d: inventory %d committed %d, want %d and %d", i, inv, com, inventory, committed)
	}
}

// wantList checks a list read back against want.
func wantList(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s %v, want %v", what, got, want)
	}
}

// wantRefused checks err is the coded error code, and that nothing was
// written: no fulfilment, no event, no history, nothing queued.
func wantRefused(t *testing.T, e *env, p placed, err error, code apperr.Code) {
	t.Helper()
	if e, ok := apperr.As(err); !ok || e.Code != code {
		t.Fatalf("err %v, want %s", err, code)
	}
	if n := e.count(t, `SELECT count(*) FROM fulfillments WHERE order_id = ?`, p.order.ID) +
		int64(len(e.eventsOf(t, p.order.ID))) + int64(len(e.historyOf(t, p.order.ID))); n != 0 {
		t.Fatalf("a refused change wrote %d rows", n)
	}
	wantList(t, "queued", e.q.take())
}

func TestFulfillmentService(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []scenario{
		{
			name: "shipping part of a confirmed order makes it processing", status: models.OrderConfirmed, qty: []int{2, 1},
			do: func(ctx context.Context, e *env, p placed) error {
				_, err := e.svc.Create(ctx, p.order.ID, fulfillment.Shipment{Items: []fulfillment.Item{{OrderItemID: p.line(0), Quantity: 1}},
					Carrier: "Delhivery", TrackingNumber: "DL-1", Notify: true, By: admin})
				return err
			},
			want: func(t *testing.T, e *env, p placed, err error) {
				if err != nil {
					t.Fatal(err)
				}
				wantOrder(t, e, p, models.OrderProcessing, models.FulfillmentPartiallyFulfilled)
				wantStock(t, e, p, 0, 2, 1)
				wantStock(t, e, p, 1, 3, 1)
				wantList(t, "history", e.historyOf(t, p.order.ID), models.OrderProcessing)
				wantList(t, "events", e.eventsOf(t, p.order.ID), "order.status_changed", "order.fulfillment_created")
				if n := e.count(t, `SELECT count(*) FROM customer_emails WHERE kind = ? AND customer_id = ?`,
					models.EmailFulfillmentTracking, p.order.CustomerID); n != 1 {
					t.Fatalf("%d shipment emails, want 1", n)
				}
				wantList(t, "queued", e.q.take(), tasks.TypeFulfillmentEmails, tasks.TypeOutboxDispatch)
			},
		},
		{
			name: "shipping the rest makes it shipped", status: models.OrderProcessing, qty: []int{2},
			before: shipBefore(0, 1),
			do:     ship(),
			want: func(t *testing.T, e *env, p placed, err error) {
				if err != nil {
					t.Fatal(err)
				}
				wantOrder(t, e, p, models.OrderShipped, models.FulfillmentFulfilled)
				wantStock(t, e, p, 0, 1, 0)
				wantList(t, "events", e.eventsOf(t, p.order.ID), "order.fulfillment_created",
					"order.status_changed", "order.shipped", "order.fulfillment_created")
				wantList(t, "queued", e.q.take(), tasks.TypeOutboxDispatch)
			},
		},
		{
			name: "a line named twice is refused and writes nothing", status: models.OrderConfirmed, qty: []int{2},
			do: func(ctx context.Context, e *env, p placed) error {
				one := fulfillment.Item{OrderItemID: p.line(0), Quantity: 1}
				return ship(one, one)(ctx, e, p)
			},
			want: func(t *testing.T, e *env, p placed, err error) {
				wantRefused(t, e, p, err, apperr.Validation)
				wantStock(t, e, p, 0, 3, 2)
			},
		},
		{
			name: "an order refunded in full is not shipped", status: models.OrderConfirmed, qty: []int{1},
			before: func(t *testing.T, e *env, p placed) {
				e.db.Model(&models.Order{}).Where("id = ?", p.order.ID).Update("payment_status", models.PaymentRefunded)
			},
			do:   ship(),
			want: func(t *testing.T, e *env, p placed, err error) { wantRefused(t, e, p, err, apperr.Conflict) },
		},
		{
			name: "PATCH status shipped ships every unit left, without an email", status: models.OrderProcessing, qty: []int{1, 2},
			do: func(ctx context.Context, e *env, p placed) error {
				_, err := e.svc.ShipRest(ctx, p.order.ID, "all out", admin)
				return err
			},
			want: func(t *testing.T, e *env, p placed, err error) {
				if err != nil {
					t.Fatal(err)
				}
				wantOrder(t, e, p, models.OrderShipped, models.FulfillmentFulfilled)
				wantStock(t, e, p, 1, 1, 0)
				wantList(t, "history", e.historyOf(t, p.order.ID), models.OrderShipped)
				if n := e.count(t, `SELECT count(*) FROM customer_emails WHERE customer_id = ?`, p.order.CustomerID); n != 0 {
					t.Fatalf("%d emails, want none", n)
				}
				wantList(t, "queued", e.q.take(), tasks.TypeOutboxDispatch)
			},
		},
		{
			name: "PATCH status shipped from confirmed is not a move", status: models.OrderConfirmed, qty: []int{1},
			do: func(ctx context.Context, e *env, p placed) error {
				_, err := e.svc.ShipRest(ctx, p.order.ID, "", admin)
				return err
			},
			want: func(t *testing.T, e *env, p placed, err error) { wantRefused(t, e, p, err, apperr.Conflict) },
		},
		{
			name: "delivering the last open fulfilment delivers the order", status: models.OrderConfirmed, qty: []int{1},
			before: shipBefore(0, 1),
			do: func(ctx context.Context, e *env, p placed) error {
				var f models.Fulfillment
				e.db.Take(&f, "order_id = ?", p.order.ID)
				_, err := e.svc.Deliver(ctx, p.order.ID, f.ID, admin)
				return err
			},
			want: func(t *testing.T, e *env, p placed, err error) {
				if err != nil {
					t.Fatal(err)
				}
				wantOrder(t, e, p, models.OrderDelivered, models.FulfillmentFulfilled)
				wantList(t, "history", e.historyOf(t, p.order.ID), models.OrderProcessing, models.OrderShipped, models.OrderDelivered)
				wantList(t, "queued", e.q.take(), tasks.TypeOutboxDispatch)
			},
		},
		{
			name: "PATCH status delivered delivers every open fulfilment", status: models.OrderConfirmed, qty: []int{1},
			before: shipBefore(0, 1),
			do: func(ctx context.Context, e *env, p placed) error {
				_, err := e.svc.DeliverAll(ctx, p.order.ID, "signed for", admin)
				return err
			},
			want: func(t *testing.T, e *env, p placed, err error) {
				if err != nil {
					t.Fatal(err)
				}
				wantOrder(t, e, p, models.OrderDelivered, models.FulfillmentFulfilled)
				if n := e.count(t, `SELECT count(*) FROM fulfillments WHERE order_id = ? AND status = ?`, p.order.ID,
					models.ShipmentDelivered); n != 1 {
					t.Fatalf("%d delivered fulfilments, want 1", n)
				}
			},
		},
		{
			name: "cancelling a fulfilment puts its units back and the order back to processing", status: models.OrderConfirmed,
			qty: []int{1}, before: shipBefore(0, 1),
			do: func(ctx context.Context, e *env, p placed) error {
				var f models.Fulfillment
				e.db.Take(&f, "order_id = ?", p.order.ID)
				_, err := e.svc.Cancel(ctx, p.order.ID, f.ID, admin)
				return err
			},
			want: func(t *testing.T, e *env, p placed, err error) {
				if err != nil {
					t.Fatal(err)
				}
				wantOrder(t, e, p, models.OrderProcessing, models.FulfillmentUnfulfilled)
				wantStock(t, e, p, 0, 3, 1)
				wantList(t, "history", e.historyOf(t, p.order.ID), models.OrderProcessing, models.OrderShipped, models.OrderProcessing)
			},
		},
		{
			name: "cancelling every unshipped unit of an unshipped order cancels it", status: models.OrderConfirmed, qty: []int{2},
			do: func(ctx context.Context, e *env, p placed) error {
				return e.svc.CancelUnfulfilled(ctx, p.order.ID, fulfillment.Cancellation{Note: "out of stock", By: admin})
			},
			want: func(t *testing.T, e *env, p placed, err error) {
				if err != nil {
					t.Fatal(err)
				}
				wantOrder(t, e, p, models.OrderCancelled, models.FulfillmentUnfulfilled)
				wantStock(t, e, p, 0, 3, 0)
				wantList(t, "events", e.eventsOf(t, p.order.ID), "order.status_changed", "order.items_cancelled")
				wantList(t, "queued", e.q.take(), tasks.TypeAnalyticsRollup, tasks.TypeOutboxDispatch)
			},
		},
		{
			name: "a full refund of a part-shipped order releases its unshipped units", status: models.OrderConfirmed,
			qty: []int{2, 1}, before: shipBefore(0, 2),
			do: func(ctx context.Context, e *env, p placed) error {
				return e.units.Run(ctx, func(u *uow.Unit) error {
					var o models.Order
					if err := u.Tx().Clauses(clause.Locking{Strength: "UPDATE"}).Take(&o, "id = ?", p.order.ID).Error; err != nil {
						return err
					}
					o.PaymentStatus = models.PaymentRefunded
					return fulfillment.StageReleaseUnshipped(u, &o, "customer changed their mind", admin.AdminID)
				})
			},
			want: func(t *testing.T, e *env, p placed, err error) {
				if err != nil {
					t.Fatal(err)
				}
				wantOrder(t, e, p, models.OrderShipped, models.FulfillmentFulfilled)
				wantStock(t, e, p, 1, 3, 0)
				wantList(t, "history", e.historyOf(t, p.order.ID), models.OrderProcessing, models.OrderShipped)
				wantList(t, "events", e.eventsOf(t, p.order.ID), "order.status_changed", "order.fulfillment_created",
					"order.status_changed", "order.shipped", "order.items_cancelled")
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := e.place(t, tc.status, tc.qty...)
			if tc.before != nil {
				tc.before(t, e, p)
			}
			e.q.take()
			err := tc.do(context.Background(), e, p)
			tc.want(t, e, p, err)
		})
	}
}

// A fulfilment, audit entry, email and invoice included, is three
// statements besides begin and commit: the order's lock, the read of its
// lines, and the one statement its unit sends at the commit. The audit
// entry is written once, with the fulfilment as its entity.
func TestFulfillmentIsThreeStatements(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := e.place(t, models.OrderConfirmed, 1, 1)
	entry := &audit.Pending{Entry: audit.Entry{Action: "fulfillment.create", Metadata: map[string]any{}}}
	e.statements.Store(0)
	e.counting.Store(true)
	f, err := e.svc.Create(context.Background(), p.order.ID, fulfillment.Shipment{Carrier: "Delhivery", TrackingNumber: "DL-1",
		Notify: true, By: audit.Actor{AdminID: admin.AdminID, Audit: entry}})
	e.counting.Store(false)
	if err != nil {
		t.Fatal(err)
	}
	if n := e.statements.Load(); n != 3 {
		t.Fatalf("a fulfilment sent %d statements, want 3", n)
	}
	if n := e.count(t, `SELECT count(*) FROM admin_audit_logs WHERE action = 'fulfillment.create' AND entity_id = ?`, f.ID.String()); n != 1 || !entry.Staged() {
		t.Fatalf("%d audit entries naming the fulfilment (staged %v), want 1", n, entry.Staged())
	}
}
