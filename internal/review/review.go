// Package review keeps product reviews: one per customer and product,
// marked verifiedPurchase when the customer bought the product, published
// at once and moderated by staff. products.rating_count and rating_total
// (the summary shown on product pages) are updated in the transaction of
// every change, counting published reviews only.
package review

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Limits of a review.
const (
	MinRating     = 1
	MaxRating     = 5
	MaxCommentLen = 2000
)

// Invalidator drops cached catalog pages after a rating summary changes.
type Invalidator interface {
	Invalidate(ctx context.Context, namespace string) error
}

// Service is the review service.
type Service struct {
	db *gorm.DB
	// read serves the published reviews shoppers browse: a read replica
	// when the shop has one (it may lag the primary by moments).
	read  *gorm.DB
	cache Invalidator
	// namespace is the cache namespace holding product pages.
	namespace string
}

// New returns the service on the primary db, reading published reviews
// from read (db itself when there is no replica); cache and namespace
// locate the product pages to invalidate (cache may be nil).
func New(db, read *gorm.DB, cache Invalidator, namespace string) *Service {
	return &Service{db: db, read: read, cache: cache, namespace: namespace}
}

// Review is a review as answered.
type Review struct {
	ID               uuid.UUID `json:"id"`
	ProductID        uuid.UUID `json:"productId"`
	CustomerID       uuid.UUID `json:"customerId,omitzero"`
	AuthorName       string    `json:"authorName"`
	Rating           int       `json:"rating"`
	Comment          string    `json:"comment"`
	Status           string    `json:"status,omitempty"`
	VerifiedPurchase bool      `json:"verifiedPurchase"`
	CreatedAt        time.Time `json:"createdAt"`
	UpdatedAt        time.Time `json:"updatedAt"`
}

// productID resolves an active product by id or slug. Errors: NOT_FOUND.
func productID(tx *gorm.DB, idOrSlug string) (uuid.UUID, error) {
	var row struct{ ID uuid.UUID }
	q := "SELECT id FROM products WHERE slug = ? AND status = 'active'"
	var arg any = strings.TrimSpace(idOrSlug)
	if id, err := uuid.Parse(idOrSlug); err == nil {
		q, arg = "SELECT id FROM products WHERE id = ? AND status = 'active'", id
	}
	if err := tx.Raw(q, arg).Scan(&row).Error; err != nil {
		return uuid.Nil, fmt.Errorf("review.product: %w", err)
	}
	if row.ID == uuid.Nil {
		return uuid.Nil, apperr.Missing("product")
	}
	return row.ID, nil
}

// invalidate drops cached product pages; failure only delays the new
// summary until the entries expire.
func (s *Service) invalidate(ctx context.Context) {
	if s.cache != nil {
		_ = s.cache.Invalidate(ctx, s.namespace)
	}
}

// Create posts customerID's review of product idOrSlug and returns it as
// shoppers see it (author by PublicName). Errors: NOT_FOUND
// (product unknown or not on sale), VALIDATION_ERROR, CONFLICT (the customer
// reviewed this product already).
func (s *Service) Create(ctx context.Context, customerID uuid.UUID, idOrSlug string, rating int, comment string) (*Review, error) {
	if rating < MinRating || rating > MaxRating {
		return nil, apperr.Invalid("rating", "must be between 1 and 5")
	}
	comment = strings.TrimSpace(comment)
	if len([]rune(comment)) > MaxCommentLen {
		return nil, apperr.Invalid("comment", "must be at most 2000 characters")
	}
	var out Review
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		pid, err := productID(tx, idOrSlug)
		if err != nil {
			return err
		}
		var verified bool
		if err := tx.Raw(`SELECT EXISTS (SELECT 1 FROM orders o JOIN order_items oi ON oi.order_id = o.id
			WHERE o.customer_id = ? AND oi.product_id = ? AND o.status <> 'cancelled')`, customerID, pid).Scan(&verified).Error; err != nil {
			return fmt.Errorf("review.verified: %w", err)
		}
		r := models.Review{CustomerID: customerID, ProductID: pid, Rating: rating, Comment: comment,
			Status: models.ReviewPublished, VerifiedPurchase: verified}
		if err := tx.Create(&r).Error; err != nil {
			if database.IsUnique(err) {
				return apperr.Wrap(apperr.Conflict, "you have already reviewed this product", err)
			}
			return fmt.Errorf("review.create: %w", err)
		}
		if err := adjust(tx, pid, 1, rating); err != nil {
			return err
		}
		var author string
		if err := tx.Raw(`SELECT name FROM customers WHERE id = ?`, customerID).Scan(&author).Error; err != nil {
			return fmt.Errorf("review.author: %w", err)
		}
		// Answered as every shopper will see it.
		out = toReview(r, PublicName(author))
		return nil
	})
	if err != nil {
		return nil, database.Translate(err, "review")
	}
	s.invalidate(ctx)
	return &out, nil
}

// adjust moves a product's rating counters by count reviews totalling total.
func adjust(tx *gorm.DB, productID uuid.UUID, count, total int) error {
	err := tx.Exec(`UPDATE products SET rating_count = rating_count + ?, rating_total = rating_total + ? WHERE id = ?`,
		count, total, productID).Error
	if err != nil {
		return fmt.Errorf("review.summary: %w", err)
	}
	return nil
}

func toReview(r models.Review, author string) Review {
	return Review{ID: r.ID, ProductID: r.ProductID, CustomerID: r.CustomerID, AuthorName: author, Rating: r.Rating,
		Comment: r.Comment, Status: r.Status, VerifiedPurchase: r.VerifiedPurchase,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}
