package pricing_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/pricing"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

func TestResolveAgainstDatabase(t *testing.T) {
	db, _ := testkit.MustDB(t)
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	gold := models.CustomerGroup{ID: uuid.New(), Name: "gold"}
	silver := models.CustomerGroup{ID: uuid.New(), Name: "silver"}
	must(db.Create(&gold).Error)
	must(db.Create(&silver).Error)
	p := models.Product{ID: uuid.New(), Title: "Tee", Slug: "tee", Price: 1000, Status: "active"}
	must(db.Create(&p).Error)
	vPlain := models.Variant{ID: uuid.New(), ProductID: p.ID, SKU: "T-1"}
	vPriced := models.Variant{ID: uuid.New(), ProductID: p.ID, SKU: "T-2", Price: ptr(money.Amount(1200))}
	must(db.Create(&vPlain).Error)
	must(db.Create(&vPriced).Error)
	must(db.Create(&models.ProductGroupPrice{ProductID: p.ID, CustomerGroupID: silver.ID, Price: 950}).Error)
	low := models.PriceList{ID: uuid.New(), Name: "low", CustomerGroupID: gold.ID, IsActive: true, Priority: 1, CreatedAt: time.Now()}
	high := models.PriceList{ID: uuid.New(), Name: "high", CustomerGroupID: gold.ID, IsActive: true, Priority: 5, CreatedAt: time.Now()}
	off := models.PriceList{ID: uuid.New(), Name: "off", CustomerGroupID: gold.ID, IsActive: false, Priority: 9}
	must(db.Create(&low).Error)
	must(db.Create(&high).Error)
	must(db.Create(&off).Error)
	must(db.Create(&models.PriceListRule{PriceListID: low.ID, VariantID: vPlain.ID, Price: 700}).Error)
	must(db.Create(&models.PriceListRule{PriceListID: high.ID, VariantID: vPlain.ID, Price: 800}).Error)
	must(db.Create(&models.PriceListRule{PriceListID: off.ID, VariantID: vPlain.ID, Price: 100}).Error)

	ids := []uuid.UUID{vPlain.ID, vPriced.ID, uuid.New()}
	tests := []struct {
		name  string
		group *uuid.UUID
		want  map[uuid.UUID]money.Amount
	}{
		{"guest", nil, map[uuid.UUID]money.Amount{vPlain.ID: 1000, vPriced.ID: 1200}},
		{"gold: highest-priority active list", &gold.ID, map[uuid.UUID]money.Amount{vPlain.ID: 800, vPriced.ID: 1200}},
		{"silver: group override", &silver.ID, map[uuid.UUID]money.Amount{vPlain.ID: 950, vPriced.ID: 950}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pricing.Resolve(ctx, db, tt.group, ids)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d prices, want %d", len(got), len(tt.want))
			}
			for id, want := range tt.want {
				if got[id].Amount != want {
					t.Fatalf("variant %s: %d, want %d", id, got[id].Amount, want)
				}
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
