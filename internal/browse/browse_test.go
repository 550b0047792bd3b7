package browse_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/browse"
	"github.com/gocommerce/shop/internal/cache"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// statements counts the SQL statements GORM runs.
type statements struct {
	logger.Interface
	n atomic.Int64
}

func (s *statements) Trace(ctx context.Context, begin time.Time, fc func() (string, int64), err error) {
	s.n.Add(1)
}

type shop struct {
	db                 *gorm.DB
	parent, child      models.Category
	group              uuid.UUID
	cafe               *models.Product
	listVariant        uuid.UUID
	activeInCategories int
}

func seed(t *testing.T, db *gorm.DB) *shop {
	t.Helper()
	s := &shop{db: db}
	s.parent = models.Category{ID: uuid.New(), Name: "Apparel", Slug: "apparel"}
	s.child = models.Category{ID: uuid.New(), Name: "Tees", Slug: "tees", ParentID: &s.parent.ID}
	db.Create(&s.parent)
	db.Create(&s.child)
	g := models.CustomerGroup{ID: uuid.New(), Name: "Wholesale"}
	db.Create(&g)
	s.group = g.ID
	for i := 0; i < 30; i++ {
		cat := &s.parent.ID
		if i%2 == 0 {
			cat = &s.child.ID
		}
		p := testkit.MustStoreProduct(t, db, testkit.StoreProduct{Title: fmt.Sprintf("Plain Tee %02d", i), Price: 50000, GSTRate: 500,
			CategoryID: cat, Variants: []testkit.StoreVariant{{Inventory: 5}, {Inventory: 0}, {Inventory: 7}}})
		s.activeInCategories++
		if i == 3 {
			s.listVariant = p.Variants[2].ID
		}
	}
	cap := money.Amount(150000)
	s.cafe = testkit.MustStoreProduct(t, db, testkit.StoreProduct{Title: "Café Mug", Price: 120000, CompareAt: &cap, GSTRate: 1200,
		Variants: []testkit.StoreVariant{{Inventory: 3}}})
	testkit.MustStoreProduct(t, db, testkit.StoreProduct{Title: "Draft Café Cup", Status: models.ProductDraft})
	pl := models.PriceList{ID: uuid.New(), Name: "Trade", CustomerGroupID: g.ID, IsActive: true, Priority: 1}
	db.Create(&pl)
	db.Create(&models.PriceListRule{ID: uuid.New(), PriceListID: pl.ID, VariantID: s.listVariant, Price: 42000})
	return s
}

// A list page with the cache off costs at most three statements, whatever
// the page size, filters and customer group.
func TestListStatementBudget(t *testing.T) {
	db, _ := testkit.MustDB(t)
	s := seed(t, db)
	counter := &statements{Interface: logger.Discard}
	counted := db.Session(&gorm.Session{Logger: counter})
	off := cache.New(nil, "x:", time.Minute, false)
	svc := browse.New(counted, off, browse.NewStockStore(nil, "x:", time.Minute, false), "INR")
	ctx := context.Background()

	for _, q := range []browse.ListQuery{
		{Window: paging.Window{Limit: 20}},
		{Window: paging.Window{Limit: 100}, Group: &s.group},
		{Window: paging.Window{Limit: 20, Offset: 20}, Category: "apparel"},
		{Window: paging.Window{Limit: 5}, Category: s.child.ID.String(), Pattern: "%tee%"},
		{Window: paging.Window{Limit: 20, Offset: 400}},
	} {
		counter.n.Store(0)
		page, err := svc.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if n := counter.n.Load(); n > 3 {
			t.Errorf("query %+v ran %d statements", q, n)
		}
		if q.Offset == 400 && (page.Len() != 0 || page.Total != 31) {
			t.Errorf("page past the end: %d products, total %d", page.Len(), page.Total)
		}
	}
}

func TestListAndProduct(t *testing.T) {
	db, _ := testkit.MustDB(t)
	s := seed(t, db)
	off := cache.New(nil, "x:", time.Minute, false)
	svc := browse.New(db, off, browse.NewStockStore(nil, "x:", time.Minute, false), "INR")
	ctx := context.Background()

	all, err := svc.List(ctx, browse.ListQuery{Window: paging.Window{Limit: 100}})
	if err != nil {
		t.Fatal(err)
	}
	if decoded := list(t, all); all.Total != 31 || len(decoded) != 31 || decoded[0].ID != s.cafe.ID || decoded[0].Available != 3 {
		t.Fatalf("all: total %d, %d products", all.Total, len(decoded))
	}
	tees, _ := svc.List(ctx, browse.ListQuery{Window: paging.Window{Limit: 100}, Category: "apparel"})
	sub, _ := svc.List(ctx, browse.ListQuery{Window: paging.Window{Limit: 100}, Category: s.child.ID.String()})
	if tees.Total != 30 || sub.Total != 15 {
		t.Fatalf("category apparel (with its subcategory) %d, tees %d", tees.Total, sub.Total)
	}
	none, _ := svc.List(ctx, browse.ListQuery{Window: paging.Window{Limit: 100}, Category: "no-such-category"})
	if none.Total != 0 {
		t.Fatalf("unknown category: %d", none.Total)
	}
	for _, pattern := range []string{"%cafe%", "%CAFÉ M%", "%fé%"} {
		found, _ := svc.List(ctx, browse.ListQuery{Window: paging.Window{Limit: 100}, Pattern: pattern})
		if found.Total != 1 || list(t, found)[0].ID != s.cafe.ID {
			t.Fatalf("search %q: %d results", pattern, found.Total)
		}
	}
	literal, _ := svc.List(ctx, browse.ListQuery{Window: paging.Window{Limit: 100}, Pattern: `%\%%`})
	if literal.Total != 0 {
		t.Fatalf("escaped %% matched %d", literal.Total)
	}

	p := product(t, svc, nil, s.cafe.Slug)
	if p.Price != 120000 || p.CompareAtPrice == nil || *p.CompareAtPrice != 150000 || p.Available != 3 || !p.InStock ||
		p.GSTRate != 1200 || len(p.Variants) != 1 || p.Currency != "INR" {
		t.Fatalf("product: %+v", p)
	}
	if _, err := svc.Product(ctx, nil, s.cafe.ID.String()); err != nil {
		t.Fatalf("by id: %v", err)
	}
	var draft models.Product
	db.Take(&draft, "title = ?", "Draft Café Cup")
	if _, err := svc.Product(ctx, nil, draft.ID.String()); err == nil {
		t.Fatal("a draft product was served")
	}

	// The group's price list prices one variant; the product's "from" price follows.
	var withList models.Variant
	db.Take(&withList, "id = ?", s.listVariant)
	guestView := product(t, svc, nil, withList.ProductID.String())
	groupView := product(t, svc, &s.group, withList.ProductID.String())
	if guestView.Price != 50000 || groupView.Price != 42000 || groupView.Available != 12 {
		t.Fatalf("guest price %s, group price %s, available %d", guestView.Price, groupView.Price, groupView.Available)
	}
}

// product reads a product page and decodes it as answered.
func product(t *testing.T, svc *browse.Service, group *uuid.UUID, idOrSlug string) browse.Product {
	t.Helper()
	r, err := svc.Product(context.Background(), group, idOrSlug)
	if err != nil {
		t.Fatal(err)
	}
	var p browse.Product
	if err := json.Unmarshal(r.AppendJSON(nil), &p); err != nil {
		t.Fatalf("rendered product does not decode: %v", err)
	}
	return p
}

// list decodes a rendered list page as answered.
func list(t *testing.T, p *browse.Page) []browse.Product {
	t.Helper()
	var out []browse.Product
	if err := json.Unmarshal(p.AppendJSON(nil), &out); err != nil {
		t.Fatalf("rendered page does not decode: %v", err)
	}
	return out
}

// A search is cached in process only, yet like every cached page it is
// served without SQL until the catalog changes, and fresh after.
func TestSearchPagesFollowCatalogWrites(t *testing.T) {
	db, _ := testkit.MustDB(t)
	rdb, _ := testkit.MustRedis(t)
	s := seed(t, db)
	counter := &statements{Interface: logger.Discard}
	catalog := cache.New(rdb, "shop:cache:", time.Minute, true)
	svc := browse.New(db.Session(&gorm.Session{Logger: counter}), catalog, browse.NewStockStore(rdb, "shop:cache:", time.Minute, true), "INR")
	ctx := context.Background()
	q := browse.ListQuery{Window: paging.Window{Limit: 100}, Pattern: "%plain tee%"}

	first, err := svc.List(ctx, q)
	if err != nil || first.Total != int64(s.activeInCategories) {
		t.Fatalf("search: %v, %d results", err, first.Total)
	}
	counter.n.Store(0)
	if again, _ := svc.List(ctx, q); again.Total != first.Total || counter.n.Load() != 0 {
		t.Fatalf("repeat search: %d results, %d statements", again.Total, counter.n.Load())
	}
	if keys := rdb.Keys(ctx, "shop:cache:catalog:*plist*").Val(); len(keys) != 0 {
		t.Fatalf("a search page went to Redis: %v", keys)
	}
	testkit.MustStoreProduct(t, db, testkit.StoreProduct{Title: "Plain Tee New"})
	if err := catalog.Invalidate(ctx, browse.CatalogNamespace); err != nil {
		t.Fatal(err)
	}
	if after, _ := svc.List(ctx, q); after.Total != first.Total+1 {
		t.Fatalf("after a catalog write: %d results, want %d", after.Total, first.Total+1)
	}
}
