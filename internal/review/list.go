package review

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// reviewRow is a review with its author's name and email and the total of
// the filtered list (count(*) OVER ()).
type reviewRow struct {
	models.Review
	AuthorName  string
	AuthorEmail string
	Total       int64
}

const listSQL = `SELECT r.*, c.name AS author_name, c.email AS author_email, count(*) OVER () AS total
FROM reviews r JOIN customers c ON c.id = r.customer_id`

// Published returns a page of product idOrSlug's published reviews, newest
// first, their count and the product's summary. Authors are shown by
// PublicName. Errors: NOT_FOUND.
func (s *Service) Published(ctx context.Context, idOrSlug string, w paging.Window) ([]Review, int64, Summary, error) {
	limit, offset := w.Limit, w.Offset
	db := s.read.WithContext(ctx)
	pid, err := productID(db, idOrSlug)
	if err != nil {
		return nil, 0, Summary{}, err
	}
	var p struct{ RatingCount, RatingTotal int }
	if err := db.Raw(`SELECT rating_count, rating_total FROM products WHERE id = ?`, pid).Scan(&p).Error; err != nil {
		return nil, 0, Summary{}, fmt.Errorf("review.summary: %w", err)
	}
	var rows []reviewRow
	err = db.Raw(listSQL+` WHERE r.product_id = ? AND r.status = ? ORDER BY r.created_at DESC, r.id DESC LIMIT ? OFFSET ?`,
		pid, models.ReviewPublished, limit, offset).Scan(&rows).Error
	if err != nil {
		return nil, 0, Summary{}, fmt.Errorf("review.published: %w", err)
	}
	out := make([]Review, len(rows))
	for i, r := range rows {
		out[i] = toReview(r.Review, PublicName(r.AuthorName))
		out[i].CustomerID = uuid.Nil // not shown to shoppers
		out[i].Status = ""
	}
	return out, int64(p.RatingCount), Summarize(p.RatingCount, p.RatingTotal), nil
}

// Filter selects reviews for moderation.
type Filter struct {
	Status    string
	ProductID *uuid.UUID
	paging.Window
}

// AdminReview is a review as staff see it.
type AdminReview struct {
	Review
	CustomerEmail string `json:"customerEmail"`
}

// List returns a page of reviews for moderation, newest first, and the
// number matching.
func (s *Service) List(ctx context.Context, f Filter) ([]AdminReview, int64, error) {
	q := listSQL + " WHERE true"
	var args []any
	if f.Status != "" {
		q += " AND r.status = ?"
		args = append(args, f.Status)
	}
	if f.ProductID != nil {
		q += " AND r.product_id = ?"
		args = append(args, *f.ProductID)
	}
	q += " ORDER BY r.created_at DESC, r.id DESC LIMIT ? OFFSET ?"
	args = append(args, f.Limit, f.Offset)
	var rows []reviewRow
	if err := s.db.WithContext(ctx).Raw(q, args...).Scan(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("review.list: %w", err)
	}
	out := make([]AdminReview, len(rows))
	var total int64
	for i, r := range rows {
		out[i] = AdminReview{Review: toReview(r.Review, r.AuthorName), CustomerEmail: r.AuthorEmail}
		total = r.Total
	}
	if len(rows) == 0 && f.Offset > 0 {
		cq := "SELECT count(*) FROM reviews r WHERE true"
		cargs := []any{}
		if f.Status != "" {
			cq += " AND r.status = ?"
			cargs = append(cargs, f.Status)
		}
		if f.ProductID != nil {
			cq += " AND r.product_id = ?"
			cargs = append(cargs, *f.ProductID)
		}
		if err := s.db.WithContext(ctx).Raw(cq, cargs...).Scan(&total).Error; err != nil {
			return nil, 0, fmt.Errorf("review.count: %w", err)
		}
	}
	return out, total, nil
}

// Moderate sets review id's status (published or hidden) and moves the
// product's summary accordingly. A keyed request retried after its
// process died answers with the review as it is: the move is recorded
// under its key, so the retry is not audited as a second moderation.
// Errors: NOT_FOUND, VALIDATION_ERROR.
func (s *Service) Moderate(ctx context.Context, id uuid.UUID, status string) (*AdminReview, error) {
	if status != models.ReviewPublished && status != models.ReviewHidden {
		return nil, apperr.Invalid("status", "must be one of: published, hidden")
	}
	if _, ok := idempotency.RecordedChange(ctx); ok {
		return s.adminReview(ctx, id)
	}
	changed := false
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var r models.Review
		if err := tx.Raw(`SELECT * FROM reviews WHERE id = ? FOR UPDATE`, id).Scan(&r).Error; err != nil {
			return fmt.Errorf("review.moderate: %w", err)
		}
		if r.ID == uuid.Nil {
			return apperr.Missing("review")
		}
		if err := idempotency.RecordChange(uow.Within(ctx, tx), id.String()); err != nil {
			return err
		}
		if r.Status == status {
			return nil
		}
		changed = true
		sign := 1
		if status == models.ReviewHidden {
			sign = -1
		}
		if err := tx.Exec(`UPDATE reviews SET status = ?, updated_at = ? WHERE id = ?`, status, time.Now().UTC(), id).Error; err != nil {
			return fmt.Errorf("review.moderate: %w", err)
		}
		return adjust(tx, r.ProductID, sign, sign*r.Rating)
	})
	if err != nil {
		return nil, database.Translate(err, "review")
	}
	if changed {
		s.invalidate(ctx)
	}
	return s.adminReview(ctx, id)
}

// adminReview returns review id as the administrator sees it. Errors:
// NOT_FOUND.
func (s *Service) adminReview(ctx context.Context, id uuid.UUID) (*AdminReview, error) {
	var rows []reviewRow
	if err := s.db.WithContext(ctx).Raw(listSQL+` WHERE r.id = ?`, id).Scan(&rows).Error; err != nil {
		return nil, database.Translate(err, "review")
	}
	if len(rows) == 0 {
		return nil, apperr.Missing("review")
	}
	return &AdminReview{Review: toReview(rows[0].Review, rows[0].AuthorName), CustomerEmail: rows[0].AuthorEmail}, nil
}
