package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/retention"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

// registerBackoffice mounts the back-office jobs: analytics rollups, bulk
// inventory updates, reconcile, the order counters' compaction and
// retention.
func registerBackoffice(mux *asynq.ServeMux, a *app.App) {
	stats, bulk, repair := a.Analytics, a.Inventory, a.Reconcile
	mux.HandleFunc(tasks.TypeAnalyticsRollup, func(ctx context.Context, t *asynq.Task) error {
		var p tasks.AnalyticsRollupPayload
		if err := tasks.Decode(t, &p); err != nil {
			return err
		}
		from, errFrom := time.Parse(time.DateOnly, p.From)
		to, errTo := time.Parse(time.DateOnly, p.To)
		if errFrom != nil || errTo != nil || to.Before(from) {
			return fmt.Errorf("analytics rollup: bad span %q..%q: %w", p.From, p.To, asynq.SkipRetry)
		}
		return stats.RollupUTCDays(ctx, from, to)
	})

	mux.HandleFunc(tasks.TypeInventoryBulk, func(ctx context.Context, t *asynq.Task) error {
		var p tasks.InventoryBulkPayload
		if err := tasks.Decode(t, &p); err != nil {
			return err
		}
		updates, err := stock.DecodeUpdates(p.Updates)
		if err != nil {
			return fmt.Errorf("%w: %w", err, asynq.SkipRetry)
		}
		id, _ := asynq.GetTaskID(ctx)
		res, err := bulk.ApplyBulk(ctx, id, updates)
		if errors.Is(err, stock.ErrRefused) {
			// The whole update was rolled back; asking again gives the same answer.
			return fmt.Errorf("%w: %w", err, asynq.SkipRetry)
		}
		if err != nil {
			return err
		}
		return writeResult(t, res)
	})

	mux.HandleFunc(tasks.TypeCODRemittance, func(ctx context.Context, t *asynq.Task) error {
		var p tasks.CODRemittancePayload
		if err := tasks.Decode(t, &p); err != nil {
			return err
		}
		admin, _ := uuid.Parse(p.AdminID)
		id, _ := asynq.GetTaskID(ctx)
		res, err := a.Remittances.Apply(ctx, id, admin, p.Rows)
		if err != nil {
			return err
		}
		return writeResult(t, res)
	})

	mux.HandleFunc(tasks.TypeGSTRateChanges, func(ctx context.Context, t *asynq.Task) error {
		var p tasks.GSTRateChangesPayload
		if err := tasks.Decode(t, &p); err != nil {
			return err
		}
		at, err := time.Parse(time.RFC3339, p.At)
		if err != nil {
			return fmt.Errorf("gst rate changes: bad tick time %q: %w", p.At, asynq.SkipRetry)
		}
		applied, err := a.Catalog.ApplyDueRateChanges(ctx, at)
		for _, c := range applied {
			a.Log.InfoContext(ctx, "gst rate change applied", "rate_change_id", c.ID, "products", c.Products)
		}
		return err
	})

	mux.HandleFunc(tasks.TypeReconcile, func(ctx context.Context, t *asynq.Task) error {
		rep, err := repair.Run(ctx)
		if err != nil {
			return err
		}
		return writeResult(t, rep)
	})

	mux.HandleFunc(tasks.TypeCompactOrderCounters, func(ctx context.Context, t *asynq.Task) error {
		c, err := order.CompactCounters(ctx, a.DB)
		if c.Folded+c.Emptied > 0 {
			a.Log.DebugContext(ctx, "order counters compacted", "folded", c.Folded, "emptied", c.Emptied)
		}
		return err
	})

	mux.HandleFunc(tasks.TypeRetention, func(ctx context.Context, t *asynq.Task) error {
		keys, err := retention.PruneIdempotencyKeys(ctx, a.DB)
		if err != nil {
			return err
		}
		days := a.Config.DataRetentionDays
		if days == 0 {
			a.Log.InfoContext(ctx, "retention: pruned", "idempotency_keys", keys)
			return nil // the rest is kept forever
		}
		rep, err := retention.Prune(ctx, a.DB, time.Now().AddDate(0, 0, -days))
		if err != nil {
			return err
		}
		a.Log.InfoContext(ctx, "retention: pruned", "days", days, "events", rep.Events, "guest_carts", rep.GuestCarts,
			"admin_emails", rep.AdminEmails, "idempotency_keys", keys)
		return nil
	})
}

// writeResult stores a job's result with the task, where GET
// /admin/jobs/{id} reads it.
func writeResult(t *asynq.Task, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if w := t.ResultWriter(); w != nil {
		_, err = w.Write(b)
	}
	return err
}
