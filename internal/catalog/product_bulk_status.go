package catalog

import (
	"context"
	"fmt"
	"slices"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// StatusSkip is a product a bulk status change left as it was, and why.
type StatusSkip struct {
	ProductID uuid.UUID
	Title     string
	// Status is the product's status, which it keeps.
	Status string
	Reason string
}

// BulkStatusResult is what a bulk status change did.
type BulkStatusResult struct {
	// Updated are the products now in the status asked for (those already
	// in it included).
	Updated []uuid.UUID
	// Skipped are the products whose status cannot move there (an archived
	// product goes back to draft before it is published).
	Skipped []StatusSkip
}

// SetProductsStatus moves each of the products ids (1 to MaxListIDs, no
// repeats) to status in one transaction, so a storefront sees all of them
// change at once; a product that may not make the move keeps its status and
// is reported in Skipped, as is one that would be active without a valid
// hsnCode. A keyed retry of a change that committed writes nothing and
// answers as the first run did, read from the products now.
// Errors: VALIDATION_ERROR (status; ids: none, too many, repeated, or
// naming no product).
func (s *Service) SetProductsStatus(ctx context.Context, ids []uuid.UUID, status string) (*BulkStatusResult, error) {
	if err := checkStatus(status); err != nil {
		return nil, err
	}
	if len(ids) == 0 || len(ids) > MaxListIDs {
		return nil, apperr.Invalid("productIds", fmt.Sprintf("must name 1 to %d products", MaxListIDs))
	}
	for i, id := range ids {
		if slices.Contains(ids[:i], id) {
			return nil, apperr.Invalid(fmt.Sprintf("productIds[%d]", i), "names a product already listed")
		}
	}
	if _, ok := idempotency.RecordedRow(ctx); ok {
		// A keyed retry of a change that committed: the products moved
		// then are in status now and answer as updated, the skipped ones
		// answer as skipped again; nothing is written.
		var rows []models.Product
		if err := s.db.WithContext(ctx).Where("id IN ?", ids).Find(&rows).Error; err != nil {
			return nil, translate(err, resProduct)
		}
		rule, err := loadHSNRule(s.db.WithContext(ctx))
		if err != nil {
			return nil, translate(err, resProduct)
		}
		out, _, err := sortForStatus(rows, ids, status, rule)
		return out, err
	}
	var out *BulkStatusResult
	err := s.tx(ctx, func(tx *gorm.DB) error {
		// Locked in id order, as concurrent bulk changes then wait rather
		// than deadlock.
		var rows []models.Product
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id IN ?", ids).Order("id").Find(&rows).Error; err != nil {
			return err
		}
		rule, err := loadHSNRule(tx)
		if err != nil {
			return err
		}
		var move []uuid.UUID
		if out, move, err = sortForStatus(rows, ids, status, rule); err != nil {
			return err
		}
		if err := idempotency.RecordRow(ctx, tx, ids[0]); err != nil {
			return err
		}
		if len(move) == 0 {
			return nil
		}
		return tx.Model(&models.Product{}).Where("id IN ?", move).
			Updates(map[string]any{"status": status, "updated_at": touch()}).Error
	})
	if err != nil {
		return nil, translate(err, resProduct)
	}
	return out, nil
}

// sortForStatus sorts the products ids (read as rows) for a move to
// status: those in it or able to move there (with an hsnCode rule
// accepts) are updated, and of them those not yet in it are to move; the
// others are skipped. Errors: VALIDATION_ERROR naming an id that has no
// row.
func sortForStatus(rows []models.Product, ids []uuid.UUID, status string, rule hsnRule) (out *BulkStatusResult, move []uuid.UUID, err error) {
	byID := make(map[uuid.UUID]*models.Product, len(rows))
	for i := range rows {
		byID[rows[i].ID] = &rows[i]
	}
	out = &BulkStatusResult{Updated: []uuid.UUID{}, Skipped: []StatusSkip{}}
	for i, id := range ids {
		p := byID[id]
		switch {
		case p == nil:
			return nil, nil, unknownRef(fmt.Sprintf("productIds[%d]", i))
		case !CanMove(p.Status, status):
			out.Skipped = append(out.Skipped, StatusSkip{ProductID: id, Title: p.Title, Status: p.Status,
				Reason: fmt.Sprintf("a product cannot move from %s to %s", p.Status, status)})
			continue
		case p.Status != status && rule.check(p.HSNCode, status) != nil:
			e, _ := apperr.As(rule.check(p.HSNCode, status))
			out.Skipped = append(out.Skipped, StatusSkip{ProductID: id, Title: p.Title, Status: p.Status, Reason: e.Message})
			continue
		case p.Status != status:
			move = append(move, id)
		}
		out.Updated = append(out.Updated, id)
	}
	return out, move, nil
}
