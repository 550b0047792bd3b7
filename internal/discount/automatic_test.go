package discount_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

func TestRecentAutomaticDiscountsAreAtMostTTLOld(t *testing.T) {
	db, _ := testkit.MustDB(t)
	ctx := context.Background()
	add := func() {
		if err := db.Create(&models.Discount{Type: models.DiscountFixedAmount, Value: 100, ApplicationType: models.DiscountAutomatic,
			Scope: models.DiscountScopeOrder, IsActive: true}).Error; err != nil {
			t.Fatal(err)
		}
	}
	add()
	recent := discount.NewRecent(300 * time.Millisecond)
	if got, _ := recent.Automatic(ctx, db); len(got) != 1 {
		t.Fatalf("%d automatic discounts, want 1", len(got))
	}
	add()
	if got, _ := recent.Automatic(ctx, db); len(got) != 1 {
		t.Fatalf("re-read within the TTL: %d", len(got))
	}
	if got, _ := discount.Fresh.Automatic(ctx, db); len(got) != 2 {
		t.Fatalf("Fresh sees %d, want 2", len(got))
	}
	time.Sleep(350 * time.Millisecond)
	if got, _ := recent.Automatic(ctx, db); len(got) != 2 {
		t.Fatalf("after the TTL: %d, want 2", len(got))
	}
}

// Fresh keeps the automatic discounts between checkouts only while
// nothing that decides their outcome changed: it reuses what it read while
// the discounts' version stands, and sees at once a discount deactivated,
// one reaching its usage limit, a product taken off a PRODUCT-scope
// discount and a product added to a buy X get Y collection; a use counted
// below the limit keeps the list; two databases keep lists of their own.
func TestFreshSeesEveryChangeThatDecides(t *testing.T) {
	db, _ := testkit.MustDB(t)
	ctx := context.Background()
	read := func(db *gorm.DB) []discount.Target {
		t.Helper()
		list, err := discount.Fresh.Automatic(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		return list
	}
	limit := 2
	a := models.Discount{Type: models.DiscountFixedAmount, Value: 100, ApplicationType: models.DiscountAutomatic,
		Scope: models.DiscountScopeOrder, IsActive: true, UsageLimit: &limit}
	if err := db.Create(&a).Error; err != nil {
		t.Fatal(err)
	}
	first := read(db)
	if len(first) != 1 || first[0].Discount.ID != a.ID {
		t.Fatalf("first read: %+v", first)
	}
	if again := read(db); &again[0] != &first[0] {
		t.Fatal("nothing changed, yet the discounts were read again")
	}
	use := func() { db.Exec(`UPDATE discounts SET usage_count = usage_count + 1 WHERE id = ?`, a.ID) }
	use()
	if again := read(db); &again[0] != &first[0] {
		t.Fatal("a use below the limit made Fresh read the discounts again")
	}
	use()
	if got := read(db); len(got) != 1 || got[0].Discount.UsageCount != 2 ||
		discount.Evaluate(discount.Input{Target: got[0], Lines: []discount.Line{{Total: 1000}}, Now: time.Now()}).Reason != discount.ReasonUsageLimit {
		t.Fatalf("the last use: %+v", got)
	}
	db.Model(&models.Discount{}).Where("id = ?", a.ID).Update("is_active", false)
	if got := read(db); len(got) != 0 {
		t.Fatalf("deactivated, still read: %+v", got)
	}

	p := fixtures.MustProduct(t, db, "Kurta", 99900)
	scoped := models.Discount{Type: models.DiscountPercentage, Value: 1000, ApplicationType: models.DiscountAutomatic,
		Scope: models.DiscountScopeProduct, IsActive: true}
	db.Create(&scoped)
	db.Create(&models.DiscountProduct{DiscountID: scoped.ID, ProductID: p.ID})
	if got := read(db); len(got) != 1 || !got[0].ProductIDs[p.ID] {
		t.Fatalf("product-scope discount: %+v", got)
	}
	db.Where("discount_id = ?", scoped.ID).Delete(&models.DiscountProduct{})
	if got := read(db); len(got) != 1 || got[0].ProductIDs[p.ID] {
		t.Fatalf("the product taken off: %+v", got)
	}
	db.Model(&models.Discount{}).Where("id = ?", scoped.ID).Update("is_active", false)

	c := models.Collection{Name: "Festive", Slug: "festive"}
	db.Create(&c)
	bxgy := models.Discount{Type: models.DiscountBuyXGetY, ApplicationType: models.DiscountAutomatic, Scope: models.DiscountScopeOrder,
		IsActive: true, Rules: models.DiscountRules{Buy: &models.PromotionTargets{Quantity: 2, CollectionIDs: []uuid.UUID{c.ID}},
			Get: &models.PromotionGet{PromotionTargets: models.PromotionTargets{Quantity: 1, CollectionIDs: []uuid.UUID{c.ID}}, PercentOff: 10000}}}
	db.Create(&bxgy)
	if got := read(db); len(got) != 1 || got[0].Buy.ProductIDs[p.ID] {
		t.Fatalf("an empty collection: %+v", got)
	}
	db.Create(&models.CollectionProduct{CollectionID: c.ID, ProductID: p.ID})
	if got := read(db); len(got) != 1 || !got[0].Buy.ProductIDs[p.ID] || !got[0].Get.ProductIDs[p.ID] {
		t.Fatalf("a product added to the collection: %+v", got)
	}

	other, _ := testkit.MustDB(t)
	if got := read(other); len(got) != 0 {
		t.Fatalf("another database answered this one's discounts: %+v", got)
	}
}
