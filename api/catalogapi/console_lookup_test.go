package catalogapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/uuid"
)

// The admin product list finds a product by part of a variant's SKU, names
// the products of a page by id, and carries each product's stock; bad ids
// are 400.
func TestListProductsBySKUAndIDs(t *testing.T) {
	e := newEnv(t)
	tee := e.product(t, map[string]any{"title": "Plain Tee", "description": "Cotton"})
	mug := e.product(t, map[string]any{"title": "Mug", "description": "Ceramic"})
	bare := e.product(t, map[string]any{"title": "Poster"})
	e.variant(t, tee["id"].(string), map[string]any{"sku": "TEE-BLK-M", "inventory": 7})
	e.variant(t, tee["id"].(string), map[string]any{"sku": "TEE-BLK-L", "inventory": 5})
	e.variant(t, mug["id"].(string), map[string]any{"sku": "MUG_01", "inventory": 3})

	if got := titles(e.list(t, "search=blk-l")); len(got) != 1 || got[0] != "Plain Tee" {
		t.Fatalf("search by part of a SKU: %v", got)
	}
	if got := titles(e.list(t, "search=tee")); len(got) != 1 {
		t.Fatalf("a title and a SKU of one product list it once: %v", got)
	}
	if got := titles(e.list(t, "search="+url.QueryEscape("g_0"))); len(got) != 1 || got[0] != "Mug" {
		t.Fatalf("_ in a SKU search is literal: %v", got)
	}

	var l struct {
		Data []struct {
			ID           string `json:"id"`
			VariantCount int    `json:"variantCount"`
			OnHand       int    `json:"onHand"`
			Available    int    `json:"available"`
		} `json:"data"`
		Pagination struct{ Total int } `json:"pagination"`
	}
	e.do(t, http.MethodGet, "/products?ids="+tee["id"].(string)+","+bare["id"].(string)+","+uuid.NewString(), nil).
		Expect(t, http.StatusOK).JSON(t, &l)
	if len(l.Data) != 2 || l.Pagination.Total != 2 {
		t.Fatalf("by ids: %+v", l)
	}
	for _, p := range l.Data {
		want := map[string][3]int{tee["id"].(string): {2, 12, 12}, bare["id"].(string): {0, 0, 0}}[p.ID]
		if [3]int{p.VariantCount, p.OnHand, p.Available} != want {
			t.Fatalf("stock of %s: %+v, want %v", p.ID, p, want)
		}
	}
	e.invalid(t, http.MethodGet, "/products?ids=not-a-uuid", nil).ExpectError(t, http.StatusBadRequest, "VALIDATION_ERROR")
	many := strings.TrimSuffix(strings.Repeat(uuid.NewString()+",", 101), ",")
	e.invalid(t, http.MethodGet, "/products?ids="+many, nil).ExpectError(t, http.StatusBadRequest, "VALIDATION_ERROR")
}

// GET /admin/variants finds variants by part of the SKU or the product's
// title and names them (product title, size, colour, SKU, stock), or reads
// them by id.
func TestSearchVariants(t *testing.T) {
	e := newEnv(t)
	tee := e.product(t, map[string]any{"title": "Crème Tee"})
	m := e.variant(t, tee["id"].(string), map[string]any{"sku": "CT-M", "size": "M", "color": "Black", "inventory": 4})
	e.variant(t, tee["id"].(string), map[string]any{"sku": "CT-L", "size": "L", "color": "Black", "inventory": 2})
	mug := e.product(t, map[string]any{"title": "Mug"})
	e.variant(t, mug["id"].(string), map[string]any{"sku": "MUG-CT", "inventory": 1})

	type ref struct {
		ID           string `json:"id"`
		ProductTitle string `json:"productTitle"`
		SKU          string `json:"sku"`
		Size         string `json:"size"`
		Color        string `json:"color"`
		Available    int    `json:"available"`
	}
	search := func(q string) []ref {
		var l struct {
			Data []ref `json:"data"`
		}
		e.do(t, http.MethodGet, "/variants?"+q, nil).Expect(t, http.StatusOK).JSON(t, &l)
		return l.Data
	}
	skus := func(rs []ref) string {
		var out []string
		for _, r := range rs {
			out = append(out, r.SKU)
		}
		return strings.Join(out, ",")
	}
	if got := skus(search("search=ct-")); got != "CT-L,CT-M" {
		t.Fatalf("by part of a SKU: %s", got)
	}
	if got := skus(search("search=creme")); got != "CT-L,CT-M" {
		t.Fatalf("by the product's title, accents ignored: %s", got)
	}
	if got := skus(search("search=ct")); got != "CT-L,CT-M,MUG-CT" {
		t.Fatalf("by SKU or title, ordered by title then SKU: %s", got)
	}
	got := search("ids=" + m["id"].(string))
	if len(got) != 1 || got[0] != (ref{ID: m["id"].(string), ProductTitle: "Crème Tee", SKU: "CT-M", Size: "M", Color: "Black", Available: 4}) {
		t.Fatalf("by id: %+v", got)
	}
	if got := skus(search("skus=MUG-CT,CT-L,NONE")); got != "CT-L,MUG-CT" {
		t.Fatalf("by exact SKUs: %s", got)
	}
	e.invalid(t, http.MethodGet, "/variants?ids=x", nil).ExpectError(t, http.StatusBadRequest, "VALIDATION_ERROR")
	e.as(t, "viewer").do(t, http.MethodGet, "/variants?search=ct", nil).Expect(t, http.StatusOK)
}

// POST /admin/products/bulk-status moves products in one transaction,
// keeps (and reports) those that may not make the move, refuses an unknown
// id without changing anything, and is audited.
func TestBulkProductStatus(t *testing.T) {
	e := newEnv(t)
	a := e.product(t, map[string]any{"title": "A"})
	b := e.product(t, map[string]any{"title": "B", "status": "active"})
	c := e.product(t, map[string]any{"title": "C"})
	e.do(t, http.MethodPatch, "/products/"+c["id"].(string), map[string]any{"status": "archived"}).Expect(t, http.StatusOK)
	ids := []any{a["id"], b["id"], c["id"]}

	var res struct {
		Updated []string `json:"updated"`
		Skipped []struct {
			ProductID, Title, Status, Reason string
		} `json:"skipped"`
	}
	e.do(t, http.MethodPost, "/products/bulk-status", map[string]any{"productIds": ids, "status": "active"}).
		Expect(t, http.StatusOK).JSON(t, &res)
	if len(res.Updated) != 2 || len(res.Skipped) != 1 || res.Skipped[0].Title != "C" || res.Skipped[0].Status != "archived" {
		t.Fatalf("publish: %+v", res)
	}
	statuses := func() string {
		var rows []string
		e.app.DB.Raw(`SELECT status FROM products WHERE title IN ('A','B','C') ORDER BY title`).Scan(&rows)
		return strings.Join(rows, ",")
	}
	if got := statuses(); got != "active,active,archived" {
		t.Fatalf("after publishing: %s", got)
	}

	e.do(t, http.MethodPost, "/products/bulk-status", map[string]any{"productIds": append(ids, uuid.NewString()), "status": "archived"}).
		ExpectField(t, "productIds[3]")
	if got := statuses(); got != "active,active,archived" {
		t.Fatalf("a refused request changed products: %s", got)
	}
	e.do(t, http.MethodPost, "/products/bulk-status", map[string]any{"productIds": ids, "status": "archived"}).Expect(t, http.StatusOK)
	if got := statuses(); got != "archived,archived,archived" {
		t.Fatalf("after archiving: %s", got)
	}
	e.invalid(t, http.MethodPost, "/products/bulk-status", map[string]any{"productIds": ids, "status": "gone"}).
		ExpectError(t, http.StatusBadRequest, "VALIDATION_ERROR")
	e.do(t, http.MethodPost, "/products/bulk-status", map[string]any{"productIds": []any{a["id"], a["id"]}, "status": "draft"}).
		ExpectError(t, http.StatusBadRequest, "VALIDATION_ERROR")
	e.as(t, "viewer").do(t, http.MethodPost, "/products/bulk-status", map[string]any{"productIds": ids, "status": "draft"}).
		ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	var audited int64
	e.app.DB.Table("admin_audit_logs").Where("action = ?", "product.bulk_status").Count(&audited)
	if audited != 2 {
		t.Fatalf("%d audit entries of product.bulk_status, want the 2 that changed something", audited)
	}
}
