package catalog_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// seedCatalog bulk-inserts n products over six categories in one statement:
// titles like "Café Crew Tee 4242" (some accented), 70 % active, 20 % draft,
// 10 % archived, one second apart.
func seedCatalog(tb testing.TB, db *gorm.DB, n int) []uuid.UUID {
	tb.Helper()
	cats := make([]uuid.UUID, 6)
	for i := range cats {
		cats[i] = uuid.New()
		if err := db.Exec(`INSERT INTO categories (id, name, slug) VALUES (?, ?, ?)`, cats[i], fmt.Sprintf("Cat %d", i), fmt.Sprintf("cat-%d", i)).Error; err != nil {
			tb.Fatal(err)
		}
	}
	err := db.Exec(`
INSERT INTO products (title, slug, description, price, gst_rate, hsn_code, status, category_id, created_at, updated_at)
SELECT t.title, 'p-' || g, t.title || ' from our ' || (ARRAY['apparel','footwear','audio','kitchen','décor','outdoor'])[1 + g % 6]
         || ' range. Comfortable, durable and made to last.',
       49900 + (g % 97) * 100, 1800, '6109',
       CASE WHEN g % 10 < 7 THEN 'active' WHEN g % 10 < 9 THEN 'draft' ELSE 'archived' END,
       (?::uuid[])[1 + g % 6], now() - g * interval '1 second', now()
FROM generate_series(1, ?) g,
LATERAL (SELECT (ARRAY['Classic','Everyday','Premium','Organic','Urban','Café','Handloom','Studio','Héritage','Nomad'])[1 + g % 10]
         || ' ' || (ARRAY['Crew Tee','Runner','Earbuds','Skillet','Cushion Cover','Backpack','Crème Mug','Loafer'])[1 + (g / 10) % 8]
         || ' ' || g AS title) t`, uuidArray(cats), n).Error
	if err != nil {
		tb.Fatal(err)
	}
	// a live catalog is vacuumed by autovacuum; index-only counts need it
	if err := db.Exec(`VACUUM ANALYZE products`).Error; err != nil {
		tb.Fatal(err)
	}
	return cats
}

// uuidArray renders ids as a Postgres array literal.
func uuidArray(ids []uuid.UUID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = id.String()
	}
	return "{" + strings.Join(s, ",") + "}"
}

// BenchmarkListProducts measures ListProducts (page query plus total) on a
// 100k-product catalog: go test -bench ListProducts -run ^$ ./internal/catalog/
func BenchmarkListProducts(b *testing.B) {
	db, _ := testkit.MustDB(b)
	cats := seedCatalog(b, db, 100_000)
	s := catalog.New(db, catalog.Options{})
	ctx := context.Background()
	explain(b, db, "café")
	explain(b, db, "nomad runner 4259")
	cases := []struct {
		name string
		f    catalog.ProductFilter
	}{
		{"first page", catalog.ProductFilter{}},
		{"page 500", catalog.ProductFilter{Window: paging.Window{Offset: 499 * 20}}},
		{"status active", catalog.ProductFilter{Status: "active"}},
		{"category", catalog.ProductFilter{CategoryID: &cats[2]}},
		{"category and status", catalog.ProductFilter{CategoryID: &cats[2], Status: "draft"}},
		{"search common (cafe, 10%)", catalog.ProductFilter{Search: "cafe"}},
		{"search rare (one product)", catalog.ProductFilter{Search: "nomad runner 4259"}},
		{"search accent in description", catalog.ProductFilter{Search: "DECOR RANGE"}},
		{"search no match", catalog.ProductFilter{Search: "zzqx"}},
		{"search with status", catalog.ProductFilter{Search: "skillet", Status: "active"}},
		{"search two letters (no trigram)", catalog.ProductFilter{Search: "mu"}},
	}
	for _, c := range cases {
		c.f.Limit = 20
		b.Run(c.name, func(b *testing.B) {
			var total int64
			for i := 0; i < b.N; i++ {
				var err error
				if _, total, err = s.ListProducts(ctx, c.f); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(total), "matches")
		})
	}
}

// explain logs the plan of a search, to show the trigram index at work.
func explain(b *testing.B, db *gorm.DB, term string) {
	var plan []string
	err := db.Raw(`EXPLAIN (ANALYZE, COSTS OFF) ` + catalog.ListSQLForTest(db, catalog.ProductFilter{Search: term, Window: paging.Window{Limit: 20}})).Scan(&plan).Error
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("search %q:\n%s", term, strings.Join(plan, "\n"))
}
