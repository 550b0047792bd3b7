package inventory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// MaxBulkUpdates bounds one bulk request (README "API overview: back office").
const MaxBulkUpdates = 1000

// Bulk operations.
const (
	OpSet      = "set"
	OpAdd      = "add"
	OpSubtract = "subtract"
)

// Update is one line of a bulk update: set on-hand units to Inventory, or
// add or subtract Inventory units.
type Update struct {
	VariantID uuid.UUID
	Inventory int
	Operation string
}

// ErrRefused marks a bulk update that cannot be applied as asked (a result
// below the committed and reserved units, a variant gone since it was
// queued); retrying will not help.
var ErrRefused = errors.New("bulk update refused")

// SubmitBulk checks every update (each variant exists and appears once, the
// operation is set, add or subtract, units are 0..1e9) and queues the job
// that applies them all; it returns the job id. Nothing is queued unless all
// pass. Errors: VALIDATION_ERROR naming updates[i].field,
// SERVICE_UNAVAILABLE (queue).
func (s *Service) SubmitBulk(ctx context.Context, updates []Update) (string, error) {
	if len(updates) == 0 || len(updates) > MaxBulkUpdates {
		return "", apperr.Invalid("updates", "must hold 1 to 1000 updates")
	}
	seen := make(map[uuid.UUID]int, len(updates))
	ids := make([]uuid.UUID, 0, len(updates))
	for i, u := range updates {
		field := func(name string) string { return "updates[" + strconv.Itoa(i) + "]." + name }
		switch u.Operation {
		case OpSet, OpAdd, OpSubtract:
		default:
			return "", apperr.Invalid(field("operation"), "must be one of: set, add, subtract")
		}
		if u.Inventory < 0 || u.Inventory > math.MaxInt32/2 {
			return "", apperr.Invalid(field("inventory"), "must be between 0 and 1000000000")
		}
		if j, dup := seen[u.VariantID]; dup {
			return "", apperr.Invalid(field("variantId"), "repeats updates["+strconv.Itoa(j)+"]; give each variant once")
		}
		seen[u.VariantID] = i
		ids = append(ids, u.VariantID)
	}
	var found []uuid.UUID
	if err := s.db.WithContext(ctx).Raw(`SELECT id FROM variants WHERE id IN ?`, ids).Scan(&found).Error; err != nil {
		return "", fmt.Errorf("inventory.submit_bulk: %w", err)
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
	jobID := uuid.NewString()
	lines := make([]tasks.InventoryUpdate, len(updates))
	for i, u := range updates {
		lines[i] = tasks.InventoryUpdate{VariantID: u.VariantID.String(), Inventory: u.Inventory, Operation: u.Operation}
	}
	task, opts := tasks.NewInventoryBulkTask(jobID, lines)
	if _, err := tasks.Submit(ctx, s.queue, task, opts...); err != nil {
		return "", apperr.Wrap(apperr.Unavailable, "the job queue is unavailable; nothing was queued", err)
	}
	return jobID, nil
}

// BulkResult is what an applied bulk update reports.
type BulkResult struct {
	Updated int `json:"updated"`
	// LowStock lists the variants the update took to or below their
	// threshold (an inventory.low_stock event was published for each).
	LowStock []stock.LowStock `json:"lowStock"`
}

type lockedVariant struct {
	ID        uuid.UUID
	SKU       string
	Inventory int
	Reserved  int
	Committed int
}

// ApplyBulk applies the updates of job jobID in one transaction: variants
// are locked in id order (as every stock move does), each result is checked
// against the units committed to orders plus those reserved by pending
// checkouts (the floor of PATCH /variants/{id}/inventory too: a reservation
// becomes a commitment when its payment is captured), and if any update
// cannot be applied nothing is. It publishes inventory.low_stock for the variants that cross
// their threshold. The job is recorded in the same transaction, so applying
// it again returns the first result and changes nothing. A refusal wraps
// ErrRefused.
func (s *Service) ApplyBulk(ctx context.Context, jobID string, updates []Update) (*BulkResult, error) {
	sorted := append([]Update(nil), updates...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].VariantID.String() < sorted[j].VariantID.String() })
	ids := make([]uuid.UUID, len(sorted))
	for i, u := range sorted {
		ids[i] = u.VariantID
	}
	res := &BulkResult{LowStock: []stock.LowStock{}}
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
		var rows []lockedVariant
		if err := tx.Raw(`SELECT id, sku, inventory, reserved, committed FROM variants WHERE id IN ? ORDER BY id FOR UPDATE`, ids).
			Scan(&rows).Error; err != nil {
			return err
		}
		byID := make(map[uuid.UUID]lockedVariant, len(rows))
		for _, r := range rows {
			byID[r.ID] = r
		}
		newInv := make([]string, len(sorted))
		var decreases []stock.Item
		for i, u := range sorted {
			v, ok := byID[u.VariantID]
			if !ok {
				return fmt.Errorf("%w: variant %s no longer exists", ErrRefused, u.VariantID)
			}
			n, err := result(v, u)
			if err != nil {
				return err
			}
			newInv[i] = strconv.Itoa(n)
			if n < v.Inventory {
				decreases = append(decreases, stock.Item{VariantID: v.ID, Quantity: v.Inventory - n})
			}
		}
		idList := make([]string, len(ids))
		for i, id := range ids {
			idList[i] = id.String()
		}
		// Arrays as literals: GORM would expand a Go slice into a list.
		if err := tx.Exec(`UPDATE variants v SET inventory = u.inventory, updated_at = now()
			FROM unnest(?::uuid[], ?::int[]) AS u(id, inventory) WHERE v.id = u.id`,
			"{"+strings.Join(idList, ",")+"}", "{"+strings.Join(newInv, ",")+"}").Error; err != nil {
			return err
		}
		res.Updated = len(sorted)
		low, err := stock.CrossedLow(tx, decreases, s.lowStockThreshold)
		if err != nil {
			return err
		}
		for _, l := range low {
			if _, err := outbox.Publish(tx, outbox.InventoryLowStock, l); err != nil {
				return err
			}
			res.LowStock = append(res.LowStock, l)
		}
		b, err := json.Marshal(res)
		if err != nil {
			return err
		}
		return tx.Exec(`UPDATE bulk_inventory_jobs SET result = ? WHERE job_id = ?`, string(b), jobID).Error
	})
	if err != nil {
		return nil, fmt.Errorf("inventory.apply_bulk: %w", err)
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
	return fmt.Errorf("inventory: cannot scan %T as JSON", src)
}

// result is the on-hand units after u, refused below the committed and
// reserved units.
func result(v lockedVariant, u Update) (int, error) {
	n := u.Inventory
	switch u.Operation {
	case OpAdd:
		n = v.Inventory + u.Inventory
	case OpSubtract:
		n = v.Inventory - u.Inventory
	case OpSet:
	default:
		return 0, fmt.Errorf("%w: variant %s: unknown operation %q", ErrRefused, v.SKU, u.Operation)
	}
	if n > math.MaxInt32 {
		return 0, fmt.Errorf("%w: variant %s: %s %d would exceed the largest stock level", ErrRefused, v.SKU, u.Operation, u.Inventory)
	}
	if floor := v.Committed + v.Reserved; n < floor {
		return 0, fmt.Errorf("%w: variant %s: %s %d would leave %d on hand, below the %d units committed to orders (%d) and reserved by checkouts (%d)",
			ErrRefused, v.SKU, u.Operation, u.Inventory, n, floor, v.Committed, v.Reserved)
	}
	return n, nil
}

// DecodeUpdates turns a job payload's lines back into updates.
func DecodeUpdates(lines []tasks.InventoryUpdate) ([]Update, error) {
	out := make([]Update, len(lines))
	for i, l := range lines {
		id, err := uuid.Parse(l.VariantID)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: bad variant id", ErrRefused, i)
		}
		out[i] = Update{VariantID: id, Inventory: l.Inventory, Operation: l.Operation}
	}
	return out, nil
}
