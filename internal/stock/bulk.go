package stock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"gorm.io/gorm"
)

// MaxBulkUpdates bounds one bulk request (README "API overview: back office").
const MaxBulkUpdates = 1000

// ErrRefused marks a bulk update that cannot be applied as asked (a result
// below the committed and reserved units, a variant gone since it was
// queued); retrying will not help.
var ErrRefused = errors.New("bulk update refused")

// SubmitBulk checks every update (each variant exists and appears once, the
// operation is set, add or subtract, units are 0..1e9) and queues the job
// that applies them all; it returns the job id. Nothing is queued unless all
// pass. Errors: VALIDATION_ERROR naming updates[i].field,
// SERVICE_UNAVAILABLE (queue).
func (s *Levels) SubmitBulk(ctx context.Context, updates []Adjustment) (string, error) {
	if len(updates) == 0 || len(updates) > MaxBulkUpdates {
		return "", apperr.Invalid("updates", "must hold 1 to 1000 updates")
	}
	seen := make(map[[2]uuid.UUID]int, len(updates))
	ids := make([]uuid.UUID, 0, len(updates))
	var locations []uuid.UUID
	for i, u := range updates {
		field := func(name string) string { return "updates[" + strconv.Itoa(i) + "]." + name }
		if !slices.Contains(Ops, u.Operation) {
			return "", apperr.Invalid(field("operation"), "must be one of: "+strings.Join(Ops, ", "))
		}
		if u.Quantity < 0 || u.Quantity > MaxUnits {
			return "", apperr.Invalid(field("inventory"), "must be between 0 and 1000000000")
		}
		pair := [2]uuid.UUID{u.VariantID, u.LocationID}
		if j, dup := seen[pair]; dup {
			return "", apperr.Invalid(field("variantId"), "repeats updates["+strconv.Itoa(j)+"]; give each variant once a location")
		}
		seen[pair] = i
		ids = append(ids, u.VariantID)
		if u.LocationID != uuid.Nil {
			locations = append(locations, u.LocationID)
		}
	}
	if len(locations) > 0 {
		var known []uuid.UUID
		if err := s.db.WithContext(ctx).Raw(`SELECT id FROM locations WHERE id IN ?`, locations).Scan(&known).Error; err != nil {
			return "", fmt.Errorf("stock.submit_bulk: %w", err)
		}
		for i, u := range updates {
			if u.LocationID != uuid.Nil && !slices.Contains(known, u.LocationID) {
				return "", apperr.Invalid("updates["+strconv.Itoa(i)+"].locationId", "is not a known location")
			}
		}
	}
	var found []uuid.UUID
	if err := s.db.WithContext(ctx).Raw(`SELECT id FROM variants WHERE id IN ?`, ids).Scan(&found).Error; err != nil {
		return "", fmt.Errorf("stock.submit_bulk: %w", err)
	}
	if len(found) != len(ids) {
		exists := make(map[uuid.UUID]bool, len(found))
		for _, id := range found {
			exists[id] = true
		}
		for i, u := range updates {
			if !exists[u.VariantID] {
				return "", apperr.Invalid("updates["+strconv.Itoa(i)+"].variantId", "is not a known variant")
			}
		}
	}
	jobID, keyed := bulkJobID(ctx)
	lines := make([]tasks.InventoryUpdate, len(updates))
	for i, u := range updates {
		lines[i] = tasks.InventoryUpdate{VariantID: u.VariantID.String(), Inventory: u.Quantity, Operation: u.Operation}
		if u.LocationID != uuid.Nil {
			lines[i].LocationID = u.LocationID.String()
		}
	}
	task, opts := tasks.NewInventoryBulkTask(jobID, lines)
	if _, err := tasks.Submit(ctx, s.queue, task, opts...); err != nil && !(keyed && errors.Is(err, asynq.ErrTaskIDConflict)) {
		return "", apperr.Wrap(apperr.Unavailable, "the job queue is unavailable; nothing was queued", err)
	}
	return jobID, nil
}

// bulkJobID is the id of the job a bulk update queues: for a keyed request
// (keyed true) one derived from its key, the same for every retry of it, so
// that a retry after the process died between queueing the job and keeping
// the answer finds the job queued (its task id taken) and answers with it,
// and ApplyBulk applies the job once however often it is queued; else a new
// one.
func bulkJobID(ctx context.Context) (id string, keyed bool) {
	key := idempotency.GatewayKey(ctx, "inventory_bulk")
	if key == "" {
		return uuid.NewString(), false
	}
	return uuid.NewSHA1(uuid.NameSpaceOID, []byte(key)).String(), true
}

// BulkResult is what an applied bulk update reports.
type BulkResult struct {
	Updated int `json:"updated"`
	// LowStock lists the variants the update took to or below their
	// threshold (an inventory.low_stock event was published for each).
	LowStock []LowStock `json:"lowStock"`
}

// ApplyBulk applies the updates of job jobID in one transaction, all or
// none, through Adjust (the floor of PATCH /variants/{id}/inventory too),
// which publishes inventory.low_stock for the variants that cross their
// threshold. The job is recorded in the same transaction, so applying it
// again returns the first result and changes nothing. A refusal wraps
// ErrRefused.
func (s *Levels) ApplyBulk(ctx context.Context, jobID string, updates []Adjustment) (*BulkResult, error) {
	res := &BulkResult{LowStock: []LowStock{}}
	applied := false
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		// Claim the job first: a concurrent run of the same job waits here
		// and then finds it taken.
		claim := tx.Exec(`INSERT INTO bulk_inventory_jobs (job_id) VALUES (?) ON CONFLICT DO NOTHING`, jobID)
		if claim.Error != nil {
			return claim.Error
		}
		if claim.RowsAffected == 0 {
			applied = true
			return tx.Raw(`SELECT result FROM bulk_inventory_jobs WHERE job_id = ?`, jobID).Row().Scan(jsonColumn{res})
		}
		low, err := Adjust(tx, updates, s.lowStockThreshold)
		var refused *Refusal
		if errors.As(err, &refused) {
			return fmt.Errorf("%w: %w", ErrRefused, refused)
		}
		if err != nil {
			return err
		}
		res.Updated = len(updates)
		res.LowStock = append(res.LowStock, low...)
		b, err := json.Marshal(res)
		if err != nil {
			return err
		}
		return tx.Exec(`UPDATE bulk_inventory_jobs SET result = ? WHERE job_id = ?`, string(b), jobID).Error
	})
	if err != nil {
		return nil, fmt.Errorf("stock.apply_bulk: %w", err)
	}
	if len(res.LowStock) > 0 && !applied {
		outbox.Nudge(ctx, s.queue, s.log)
	}
	return res, nil
}

// jsonColumn scans a jsonb column into v.
type jsonColumn struct{ v any }

func (j jsonColumn) Scan(src any) error {
	switch b := src.(type) {
	case []byte:
		return json.Unmarshal(b, j.v)
	case string:
		return json.Unmarshal([]byte(b), j.v)
	}
	return fmt.Errorf("stock: cannot scan %T as JSON", src)
}

// DecodeUpdates turns a job payload's lines back into updates.
func DecodeUpdates(lines []tasks.InventoryUpdate) ([]Adjustment, error) {
	out := make([]Adjustment, len(lines))
	for i, l := range lines {
		id, err := uuid.Parse(l.VariantID)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: bad variant id", ErrRefused, i)
		}
		out[i] = Adjustment{VariantID: id, Quantity: l.Inventory, Operation: l.Operation}
		if l.LocationID != "" {
			if out[i].LocationID, err = uuid.Parse(l.LocationID); err != nil {
				return nil, fmt.Errorf("%w: line %d: bad location id", ErrRefused, i)
			}
		}
	}
	return out, nil
}
