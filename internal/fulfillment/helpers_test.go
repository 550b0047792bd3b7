package fulfillment_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/fulfillment"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/returns"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"gorm.io/gorm"
)

// queue records the tasks a service queues after its changes commit.
type queue struct {
	mu    sync.Mutex
	types []string
}

func (q *queue) EnqueueContext(_ context.Context, t *asynq.Task, _ ...asynq.Option) (*asynq.TaskInfo, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.types = append(q.types, t.Type())
	return &asynq.TaskInfo{}, nil
}

func (q *queue) take() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.types
	q.types = nil
	return out
}

// env is the fulfilment service over a database of its own, as the
// composition root builds it, with its queue and a count of the statements
// it sends while counting is on.
type env struct {
	db         *gorm.DB
	svc        *fulfillment.Service
	q          *queue
	units      uow.Runner
	counting   atomic.Bool
	statements atomic.Int64
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db, _ := testkit.MustDB(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e := &env{db: db, q: &queue{}}
	inv := invoice.New(db, log, "INR")
	ret := returns.New(db, e.q, log, returns.Settings{WindowDays: 30})
	e.svc = fulfillment.New(db, e.q, log, inv, ret)
	e.units = uow.NewRunner(db, e.q, log)
	count := func(tx *gorm.DB) {
		if e.counting.Load() && !tx.DryRun {
			e.statements.Add(1)
		}
	}
	cb := db.Callback()
	for name, err := range map[string]error{
		"query": cb.Query().After("gorm:query").Register("test:count", count),
		"row":   cb.Row().After("gorm:row").Register("test:count", count),
		"raw":   cb.Raw().After("gorm:raw").Register("test:count", count),
	} {
		if err != nil {
			t.Fatalf("count %s: %v", name, err)
		}
	}
	return e
}

// placed is an order placed for a case: its lines' variants (3 units
// each on hand before it) and the order with its lines.
type placed struct {
	order    models.Order
	variants []models.Variant
}

// place inserts an order in status of one line per quantity in qty.
func (e *env) place(t *testing.T, status string, qty ...int) placed {
	t.Helper()
	c := fixtures.MustCustomer(t, e.db, "Asha "+uuid.NewString()[:4])
	var p placed
	var lines []fixtures.Line
	for _, q := range qty {
		prod := fixtures.MustProduct(t, e.db, "Tee "+uuid.NewString()[:4], 50000)
		v := fixtures.MustVariant(t, e.db, prod.ID, 3)
		p.variants = append(p.variants, v)
		lines = append(lines, fixtures.Line{Product: prod, Variant: v, Qty: q})
	}
	p.order = fixtures.MustOrder(t, e.db, fixtures.OrderSpec{Customer: c, Status: status, Lines: lines})
	return p
}

// line is the order line of variant i.
func (p placed) line(i int) uuid.UUID { return p.order.Items[i].ID }

// orderNow reads the order again.
func (e *env) orderNow(t *testing.T, id uuid.UUID) models.Order {
	t.Helper()
	var o models.Order
	if err := e.db.First(&o, "id = ?", id).Error; err != nil {
		t.Fatal(err)
	}
	return o
}

// stockNow is variant v's on-hand and committed units.
func (e *env) stockNow(t *testing.T, v models.Variant) (inventory, committed int) {
	t.Helper()
	r := fixtures.Reload(t, e.db, v)
	return r.Inventory, r.Committed
}

// eventsOf is the types of the events order id published, oldest first.
func (e *env) eventsOf(t *testing.T, id uuid.UUID) []string {
	t.Helper()
	var types []string
	if err := e.db.Raw(`SELECT type FROM events WHERE data->>'orderId' = ? ORDER BY created_at`, id.String()).
		Scan(&types).Error; err != nil {
		t.Fatal(err)
	}
	return types
}

// historyOf is the statuses order id moved to, oldest first, with the
// notes of entries that moved nothing.
func (e *env) historyOf(t *testing.T, id uuid.UUID) []string {
	t.Helper()
	var rows []models.OrderStatusHistory
	if err := e.db.Where("order_id = ?", id).Order("created_at").Find(&rows).Error; err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.ToStatus
		if r.FromStatus != nil && *r.FromStatus == r.ToStatus {
			out[i] = "note: " + r.Note
		}
	}
	return out
}

// count is the rows of a query's count(*).
func (e *env) count(t *testing.T, sql string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := e.db.Raw(sql, args...).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}
