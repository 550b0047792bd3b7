// Package outbox writes domain events in the caller's transaction and moves
// them to the task queue after commit, so an event exists exactly when the
// change that caused it does, whether or not Redis was up at that moment.
package outbox

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/tracing"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Event types published by the service (docs/WEBHOOKS.md "Event types and
// their data").
const (
	OrderCreated       = "order.created"
	OrderStatusChanged = "order.status_changed"
	OrderShipped       = "order.shipped"
	// OrderFulfillmentCreated: some units of an order shipped, with tracking.
	OrderFulfillmentCreated = "order.fulfillment_created"
	PaymentSucceeded        = "payment.succeeded"
	PaymentFailed           = "payment.failed"
	InventoryLowStock       = "inventory.low_stock"
	ProductCreated          = "product.created"
	// Returns (docs/DECISIONS.md "Returns") and refunds of orders and returns.
	ReturnRequested = "return.requested"
	ReturnReceived  = "return.received"
	RefundCreated   = "refund.created"
	// Tax documents (docs/DECISIONS.md "Tax documents").
	InvoiceIssued    = "invoice.issued"
	CreditNoteIssued = "credit_note.issued"
	// OrderItemsCancelled: unshipped units of an order were cancelled
	// (docs/DECISIONS.md "Returned units and unshipped units").
	OrderItemsCancelled = "order.items_cancelled"
	// OrderPaid: money received outside the gateway was recorded for an
	// order (docs/DECISIONS.md "Cash on delivery and offline payments").
	OrderPaid = "order.paid"
	// OrderEdited: staff changed the lines of a placed order
	// (docs/DECISIONS.md "Order edits").
	OrderEdited = "order.edited"
	// ShipmentUpdated: a courier's scan moved a shipment
	// (docs/DECISIONS.md "Couriers").
	ShipmentUpdated = "shipment.updated"
)

// EventTypes lists every publishable type, for validating subscriptions.
var EventTypes = []string{OrderCreated, OrderStatusChanged, OrderShipped, OrderFulfillmentCreated, PaymentSucceeded, PaymentFailed,
	InventoryLowStock, ProductCreated, ReturnRequested, ReturnReceived, RefundCreated,
	InvoiceIssued, CreditNoteIssued, OrderItemsCancelled, OrderPaid, OrderEdited, ShipmentUpdated}

// Draft is an event to publish: its type and its data.
type Draft struct {
	Type string
	Data any
}

// Stage stages the insert of drafts in u (nothing for none) and returns
// their ids; they are published when u commits, and a dispatch is nudged
// then (Nudge). They are a microsecond apart in the order given, so the
// dispatcher, which sends oldest first, sends them in that order (Postgres
// keeps microseconds); the trace of u's context is the one they resume
// when dispatched.
func Stage(u *uow.Unit, drafts ...Draft) ([]uuid.UUID, error) {
	if len(drafts) == 0 {
		return nil, nil
	}
	cols, rows, ids, err := insertOf(u.Context(), drafts)
	if err != nil {
		return nil, err
	}
	u.Insert("events", cols, rows...)
	u.AfterCommit(NudgeKey, Nudge)
	return ids, nil
}

// Publish writes an event of type eventType with data (any JSON-serializable
// value) in tx, a transaction that is not a unit of work's (a checkout, the
// catalog); a change in a unit stages its events instead (Stage). It is
// sent only if tx commits; the caller nudges the dispatch then.
func Publish(tx *gorm.DB, eventType string, data any) (uuid.UUID, error) {
	cols, rows, ids, err := insertOf(tx.Statement.Context, []Draft{{Type: eventType, Data: data}})
	if err != nil {
		return uuid.Nil, err
	}
	var b database.Batch
	b.Insert("events", cols, rows...)
	if err := b.Exec(tx); err != nil {
		return uuid.Nil, fmt.Errorf("outbox.publish: %w", err)
	}
	return ids[0], nil
}

// insertOf is the rows of drafts in the events table, with their new ids;
// ctx gives the trace they resume.
func insertOf(ctx context.Context, drafts []Draft) (cols []string, rows [][]any, ids []uuid.UUID, err error) {
	now := time.Now().UTC()
	var tp *string
	if s := tracing.Traceparent(ctx); s != "" {
		tp = &s
	}
	ids = make([]uuid.UUID, len(drafts))
	rows = make([][]any, len(drafts))
	for i, d := range drafts {
		data, err := json.Marshal(d.Data)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("outbox.publish: %w", err)
		}
		ids[i] = uuid.New()
		rows[i] = []any{ids[i], d.Type, string(data), now.Add(time.Duration(i) * time.Microsecond), tp}
	}
	return []string{"id", "type", "data", "created_at", "trace_context"}, rows, ids, nil
}

// NudgeKey is the after-commit key of Nudge (uow.Unit.AfterCommit): one
// dispatch however many parts of a unit ask for it.
const NudgeKey = "outbox"

// Nudge asks the worker to dispatch soon. Call it after a commit that
// published events; a failure is only logged because the scheduler's periodic
// dispatch picks the events up anyway.
func Nudge(ctx context.Context, q tasks.Enqueuer, log *slog.Logger) {
	task, opts := tasks.NewOutboxDispatchTask(time.Now())
	if err := tasks.Enqueue(ctx, q, task, opts...); err != nil {
		log.WarnContext(ctx, "outbox nudge failed; the periodic dispatch will send the events", "err", err)
	}
}

// batchSize bounds one dispatch run.
const batchSize = 500

// Wanted reports which event types have a consumer; Dispatch marks events of
// other types sent without queueing anything.
type Wanted func(ctx context.Context, tx *gorm.DB) (map[string]bool, error)

// Dispatch queues a fan-out task for each unsent event of a wanted type,
// oldest first, and marks the batch sent (unwanted types are sent to
// nobody: no task, no Redis traffic). It returns how many events it moved.
// Rows are locked with SKIP LOCKED so concurrent dispatchers share the work
// without doubling it; a fan-out task id equal to the event id makes a
// repeat harmless.
func Dispatch(ctx context.Context, db *gorm.DB, q tasks.Enqueuer, wanted Wanted) (int, error) {
	moved := 0
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var pending []models.Event
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"}).
			Select("id", "type", "trace_context").Where("dispatched_at IS NULL").Order("created_at").Limit(batchSize).
			Find(&pending).Error; err != nil {
			return err
		}
		if len(pending) == 0 {
			return nil
		}
		want, err := wanted(ctx, tx)
		if err != nil {
			return fmt.Errorf("outbox.dispatch: consumers: %w", err)
		}
		ids := make([]uuid.UUID, 0, len(pending))
		for _, ev := range pending {
			if want[ev.Type] {
				task, opts := tasks.NewEventFanoutTask(ev.ID.String())
				if err := enqueueFanout(ctx, q, ev, task, opts); err != nil {
					// Keep what was queued so far; the rest stays pending.
					if len(ids) == 0 {
						return fmt.Errorf("outbox.dispatch: enqueue: %w", err)
					}
					break
				}
			}
			ids = append(ids, ev.ID)
		}
		moved = len(ids)
		return tx.Model(&models.Event{}).Where("id IN ?", ids).Update("dispatched_at", time.Now().UTC()).Error
	})
	return moved, err
}

// enqueueFanout queues an event's fan-out in the trace of the code that
// published it, when that was traced.
func enqueueFanout(ctx context.Context, q tasks.Enqueuer, ev models.Event, task *asynq.Task, opts []asynq.Option) error {
	if ev.TraceContext != nil {
		var end func()
		ctx, end = tracing.Resume(ctx, *ev.TraceContext, "dispatch "+ev.Type)
		defer end()
	}
	return tasks.Enqueue(ctx, q, task, opts...)
}

// All wants every event type (a consumer that takes everything).
func All(context.Context, *gorm.DB) (map[string]bool, error) {
	m := make(map[string]bool, len(EventTypes))
	for _, t := range EventTypes {
		m[t] = true
	}
	return m, nil
}
