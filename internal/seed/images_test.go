package seed_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/seed"
	"github.com/gocommerce/shop/internal/testkit"
)

// The demo products get two pictures each, drawn locally, that the worker
// turns into renditions the storefront shows; seeding again adds none.
func TestDemoShopSeedsImages(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	for i := 0; i < 2; i++ {
		if _, err := seed.Run(context.Background(), app.DB, seed.Options{Products: 3, VariantsPerProduct: 1, Images: app.Media}); err != nil {
			t.Fatal(err)
		}
	}
	testkit.Eventually(t, 60*time.Second, "the demo images ready", func() bool {
		var n int64
		app.DB.Raw(`SELECT count(*) FROM product_images WHERE status = 'ready'`).Scan(&n)
		return n == 6
	})
	var id string
	app.DB.Raw(`SELECT product_id FROM product_images LIMIT 1`).Scan(&id)
	var page struct {
		Images []struct {
			Alt    string `json:"alt"`
			Width  int    `json:"width"`
			Height int    `json:"height"`
		} `json:"images"`
	}
	app.Do(t, http.MethodGet, "/products/"+id, testkit.Req{}).Expect(t, http.StatusOK).JSON(t, &page)
	if len(page.Images) != 2 || page.Images[0].Width != 800 || page.Images[0].Alt == "" {
		t.Fatalf("storefront images %+v", page.Images)
	}
}
