package outbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

func TestRolledBackEventIsNeverDispatched(t *testing.T) {
	_, redisURL := testkit.MustRedis(t)
	d := testkit.MustDeps(t, testkit.MustConfig(t, testkit.MustDatabaseURL(t), redisURL))
	ctx := context.Background()
	boom := errors.New("boom")
	err := d.DB.Transaction(func(tx *gorm.DB) error {
		if _, err := outbox.Publish(tx, outbox.ProductCreated, map[string]string{"id": "p1"}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	n, err := outbox.Dispatch(ctx, d.DB, d.Queue, outbox.All)
	if err != nil || n != 0 {
		t.Fatalf("dispatched %d, err %v", n, err)
	}
	var count int64
	d.DB.Model(&models.Event{}).Count(&count)
	if count != 0 {
		t.Fatalf("%d events stored after rollback", count)
	}
	if p, _ := d.Inspector.ListPendingTasks(tasks.QueueDefault); len(p) != 0 {
		t.Fatalf("%d tasks queued", len(p))
	}
}

// An event committed while Redis is down stays pending, and is dispatched
// exactly once after Redis comes back.
func TestCommittedEventSurvivesRedisOutage(t *testing.T) {
	redis := testkit.StartRedis(t)
	d := testkit.MustDeps(t, testkit.MustConfig(t, testkit.MustDatabaseURL(t), redis.URL))
	ctx := context.Background()

	redis.Stop()
	var id string
	err := d.DB.Transaction(func(tx *gorm.DB) error {
		evID, err := outbox.Publish(tx, outbox.OrderCreated, map[string]string{"orderId": "o1"})
		id = evID.String()
		return err
	})
	if err != nil {
		t.Fatalf("commit with Redis down: %v", err)
	}
	outbox.Nudge(ctx, d.Queue, d.Log) // fails quietly
	if _, err := outbox.Dispatch(ctx, d.DB, d.Queue, outbox.All); err == nil {
		t.Fatal("dispatch with Redis down reported success")
	}
	var ev models.Event
	d.DB.Take(&ev, "id = ?", id)
	if ev.DispatchedAt != nil {
		t.Fatal("event marked dispatched while Redis was down")
	}

	redis.Start()
	n, err := outbox.Dispatch(ctx, d.DB, d.Queue, outbox.All)
	if err != nil || n != 1 {
		t.Fatalf("dispatch after Redis returned: %d, %v", n, err)
	}
	info, err := d.Inspector.GetTaskInfo(tasks.QueueDefault, "event:"+id)
	if err != nil || info.Type != tasks.TypeEventFanout {
		t.Fatalf("fan-out task: %+v, %v", info, err)
	}
	if n, _ := outbox.Dispatch(ctx, d.DB, d.Queue, outbox.All); n != 0 {
		t.Fatalf("event dispatched twice (%d)", n)
	}
	d.DB.Take(&ev, "id = ?", id)
	if ev.DispatchedAt == nil {
		t.Fatal("event not marked dispatched")
	}
}

// Events nobody consumes are marked sent without a fan-out task.
func TestUnwantedEventsQueueNothing(t *testing.T) {
	_, redisURL := testkit.MustRedis(t)
	d := testkit.MustDeps(t, testkit.MustConfig(t, testkit.MustDatabaseURL(t), redisURL))
	ctx := context.Background()
	for _, typ := range []string{outbox.OrderCreated, outbox.ProductCreated} {
		if err := d.DB.Transaction(func(tx *gorm.DB) error { _, err := outbox.Publish(tx, typ, map[string]string{}); return err }); err != nil {
			t.Fatal(err)
		}
	}
	onlyOrders := func(context.Context, *gorm.DB) (map[string]bool, error) {
		return map[string]bool{outbox.OrderCreated: true}, nil
	}
	n, err := outbox.Dispatch(ctx, d.DB, d.Queue, onlyOrders)
	if err != nil || n != 2 {
		t.Fatalf("dispatched %d, %v", n, err)
	}
	pending, _ := d.Inspector.ListPendingTasks(tasks.QueueDefault)
	if len(pending) != 1 {
		t.Fatalf("%d fan-out tasks, want 1 (order.created only)", len(pending))
	}
	var left int64
	d.DB.Model(&models.Event{}).Where("dispatched_at IS NULL").Count(&left)
	if left != 0 {
		t.Fatalf("%d events left unsent", left)
	}
}

// Events staged together are one insert, and the dispatcher (oldest
// first) meets them in the order they were given: each is a microsecond
// after the one before, never at the same time.
func TestEventsPublishedTogetherKeepTheirOrder(t *testing.T) {
	_, redisURL := testkit.MustRedis(t)
	d := testkit.MustDeps(t, testkit.MustConfig(t, testkit.MustDatabaseURL(t), redisURL))
	types := []string{outbox.OrderStatusChanged, outbox.OrderStatusChanged, outbox.OrderShipped, outbox.OrderFulfillmentCreated}
	drafts := make([]outbox.Draft, len(types))
	for i, typ := range types {
		drafts[i] = outbox.Draft{Type: typ, Data: map[string]int{"step": i}}
	}
	var ids []uuid.UUID
	if err := uow.NewRunner(d.DB, d.Tasks, d.Log).Run(context.Background(), func(u *uow.Unit) (err error) {
		ids, err = outbox.Stage(u, drafts...)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var stored []models.Event
	d.DB.Order("created_at").Find(&stored)
	if len(stored) != len(types) || len(ids) != len(types) {
		t.Fatalf("%d events stored, %d ids, want %d", len(stored), len(ids), len(types))
	}
	for i, ev := range stored {
		var data map[string]int
		if err := json.Unmarshal(ev.Data, &data); err != nil || ev.ID != ids[i] || ev.Type != types[i] || data["step"] != i {
			t.Fatalf("event %d is %s %s %s, want %s %s", i, ev.ID, ev.Type, ev.Data, ids[i], types[i])
		}
		if i > 0 && !ev.CreatedAt.After(stored[i-1].CreatedAt) {
			t.Fatalf("event %d at %s, not after event %d at %s", i, ev.CreatedAt, i-1, stored[i-1].CreatedAt)
		}
	}
}
