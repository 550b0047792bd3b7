package draft

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Get answers draft id priced now (or, once its link is payable or paid,
// as its link's snapshot). Errors: NOT_FOUND.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*View, error) {
	var v *View
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var d models.DraftOrder
		err := tx.Take(&d, "id = ?", id).Error
		if database.IsNotFound(err) {
			return apperr.Missing("draft order")
		}
		if err != nil {
			return fmt.Errorf("draft.get: %w", err)
		}
		v, err = s.read(ctx, tx, &d)
		return err
	})
	return v, err
}

// read prices d (unless its session's snapshot is what it costs) and maps it.
func (s *Service) read(ctx context.Context, tx *gorm.DB, d *models.DraftOrder) (*View, error) {
	sess, err := s.sessionOf(tx, d)
	if err != nil {
		return nil, err
	}
	if frozen(sess) {
		return s.view(d, nil, sess)
	}
	c, err := s.customerOf(tx, d.CustomerID)
	if err != nil {
		return nil, err
	}
	p, err := s.price(ctx, tx, d, c)
	if err != nil {
		return nil, err
	}
	return s.view(d, p, sess)
}

// ListFilter selects drafts: by customer, newest first.
type ListFilter struct {
	CustomerID *uuid.UUID
}

// List answers a page of drafts, newest first, each priced, and the total.
func (s *Service) List(ctx context.Context, f ListFilter, w paging.Window) ([]View, int64, error) {
	var out []View
	var total int64
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		q := tx.Model(&models.DraftOrder{})
		if f.CustomerID != nil {
			q = q.Where("customer_id = ?", *f.CustomerID)
		}
		if err := q.Count(&total).Error; err != nil {
			return fmt.Errorf("draft.list: %w", err)
		}
		var drafts []models.DraftOrder
		if err := q.Order("created_at DESC, id DESC").Limit(w.Limit).Offset(w.Offset).Find(&drafts).Error; err != nil {
			return fmt.Errorf("draft.list: %w", err)
		}
		out = make([]View, 0, len(drafts))
		for i := range drafts {
			v, err := s.read(ctx, tx, &drafts[i])
			if err != nil {
				return err
			}
			out = append(out, *v)
		}
		return nil
	})
	return out, total, err
}
