package review_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/review"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// summaryOf is the product's stored counters and what its published
// reviews add up to.
func summaryOf(t *testing.T, db *gorm.DB, productID uuid.UUID) (stored, want [2]int) {
	t.Helper()
	var p models.Product
	if err := db.Take(&p, "id = ?", productID).Error; err != nil {
		t.Fatal(err)
	}
	var sum struct{ N, Total int }
	db.Raw(`SELECT count(*) AS n, COALESCE(sum(rating), 0) AS total FROM reviews
		WHERE product_id = ? AND status = 'published'`, productID).Scan(&sum)
	return [2]int{p.RatingCount, p.RatingTotal}, [2]int{sum.N, sum.Total}
}

// One review per customer and product, even when both requests race; the
// review of a buyer is a verified purchase, the other's is not.
func TestOneReviewPerCustomerAndVerifiedPurchase(t *testing.T) {
	db, _ := testkit.MustDB(t)
	svc := review.New(db, db, nil, "")
	p := fixtures.MustProduct(t, db, "Kettle", 149900)
	v := fixtures.MustVariant(t, db, p.ID, 10)
	buyer := fixtures.MustCustomer(t, db, "Asha Rao")
	browser := fixtures.MustCustomer(t, db, "Ravi Kumar")
	fixtures.MustOrder(t, db, fixtures.OrderSpec{Customer: buyer, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})

	errs := make([]error, 8)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = svc.Create(context.Background(), buyer.ID, p.Slug, 4, "good")
		}()
	}
	wg.Wait()
	created := 0
	for _, err := range errs {
		var ae *apperr.Error
		switch {
		case err == nil:
			created++
		case !errors.As(err, &ae) || ae.Code != apperr.Conflict:
			t.Fatalf("a repeated review answered %v, want CONFLICT", err)
		}
	}
	if created != 1 {
		t.Fatalf("%d reviews created, want 1", created)
	}
	r, err := svc.Create(context.Background(), browser.ID, p.ID.String(), 2, "  meh  ")
	if err != nil {
		t.Fatal(err)
	}
	if r.VerifiedPurchase || r.Comment != "meh" || r.AuthorName != "Ravi K." {
		t.Fatalf("review %+v", r)
	}
	var buyers models.Review
	db.Take(&buyers, "customer_id = ?", buyer.ID)
	if !buyers.VerifiedPurchase {
		t.Error("the buyer's review is not a verified purchase")
	}
	if stored, want := summaryOf(t, db, p.ID); stored != want || want != [2]int{2, 6} {
		t.Fatalf("summary %v, published reviews add up to %v, want [2 6]", stored, want)
	}
}

// Moderation racing in both directions leaves the product's summary equal
// to its published reviews.
func TestModerationKeepsTheSummaryExact(t *testing.T) {
	db, _ := testkit.MustDB(t)
	svc := review.New(db, db, nil, "")
	p := fixtures.MustProduct(t, db, "Kettle", 149900)
	var ids []uuid.UUID
	for i := range 4 {
		c := fixtures.MustCustomer(t, db, "Reviewer")
		r, err := svc.Create(context.Background(), c.ID, p.Slug, i+2, "")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.ID)
	}
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status := models.ReviewStatuses[i%2]
			if _, err := svc.Moderate(context.Background(), ids[i%len(ids)], status); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if stored, want := summaryOf(t, db, p.ID); stored != want {
		t.Fatalf("summary %v, published reviews add up to %v", stored, want)
	}
	if _, err := svc.Moderate(context.Background(), ids[0], "deleted"); err == nil {
		t.Fatal("an unknown status was accepted")
	}
	if _, err := svc.Moderate(context.Background(), uuid.New(), models.ReviewHidden); err == nil {
		t.Fatal("an unknown review was moderated")
	}
}
