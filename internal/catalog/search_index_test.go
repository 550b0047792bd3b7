package catalog_test

import (
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/testkit"
	"gorm.io/gorm"
)

// TestSearchUsesTrigramIndex guards the search predicate of ListProducts:
// it must be the very expression products_search_text_idx is built on, or
// Postgres cannot use the index and a 100k catalog is scanned per search.
// With sequential and plain index scans disabled, only a bitmap scan of an
// index matching the predicate is left, and the plan must name it.
func TestSearchUsesTrigramIndex(t *testing.T) {
	db, _ := testkit.MustDB(t)
	seedCatalog(t, db, 200)
	var plan []string
	err := db.Transaction(func(tx *gorm.DB) error {
		for _, set := range []string{`SET LOCAL enable_seqscan = off`, `SET LOCAL enable_indexscan = off`} {
			if err := tx.Exec(set).Error; err != nil {
				return err
			}
		}
		q := catalog.ProductFilter{Search: "café", Window: paging.Window{Limit: 20}}
		return tx.Raw(`EXPLAIN ` + catalog.ListSQLForTest(tx, q)).Scan(&plan).Error
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(plan, "\n"), "products_search_text_idx") {
		t.Fatalf("search does not use products_search_text_idx:\n%s", strings.Join(plan, "\n"))
	}
}
