package reviewapi_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// Moderation: viewers read, staff write; hiding takes the review out of the
// product's summary and publishing puts it back, each change audited.
func TestReviewModeration(t *testing.T) {
	app := testkit.MustApp(t)
	ctx := context.Background()
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "Kadai"})
	path := "/products/" + p.ID.String() + "/reviews"
	var other string // the 2-star review, moderated below
	for _, rating := range []int{5, 2} {
		cu, _ := testkit.MustCustomer(t, app)
		r, err := app.Reviews.Create(ctx, cu.ID, p.ID.String(), rating, "")
		if err != nil {
			t.Fatal(err)
		}
		other = r.ID.String()
	}

	_, viewer := testkit.MustAdmin(t, app, models.RoleViewer)
	_, staff := testkit.MustAdmin(t, app, models.RoleStaff)
	all := app.Do(t, http.MethodGet, "/api/v1/admin/reviews?status=published", testkit.Req{Token: viewer}).Expect(t, http.StatusOK).Map(t)
	if len(all["data"].([]any)) != 2 {
		t.Fatalf("admin list: %v", all)
	}
	mod := "/api/v1/admin/reviews/" + other
	app.Do(t, http.MethodPatch, mod, testkit.Req{Token: viewer, Body: map[string]any{"status": "hidden"}}).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	app.Do(t, http.MethodPatch, mod, testkit.Req{Token: staff, Body: map[string]any{"status": "gone"}, Invalid: true}).ExpectField(t, "status")
	hidden := app.Do(t, http.MethodPatch, mod, testkit.Req{Token: staff, Body: map[string]any{"status": "hidden"}}).Expect(t, http.StatusOK).Map(t)
	if hidden["status"] != "hidden" || hidden["customerEmail"] == "" {
		t.Fatalf("moderated: %v", hidden)
	}
	app.Do(t, http.MethodPatch, mod, testkit.Req{Token: staff, Body: map[string]any{"status": "hidden"}}).Expect(t, http.StatusOK)
	list := app.Do(t, http.MethodGet, path, testkit.Req{}).Map(t)
	sum := list["summary"].(map[string]any)
	if sum["average"].(float64) != 5 || sum["count"].(float64) != 1 || len(list["data"].([]any)) != 1 {
		t.Fatalf("after hiding: %v", list)
	}
	var prod models.Product
	app.DB.Take(&prod, "id = ?", p.ID)
	if prod.RatingCount != 1 || prod.RatingTotal != 5 {
		t.Fatalf("counters: %d/%d", prod.RatingCount, prod.RatingTotal)
	}
	if page := app.Do(t, http.MethodGet, "/products/"+p.ID.String(), testkit.Req{}).Map(t); page["rating"].(map[string]any)["count"].(float64) != 1 {
		t.Fatalf("product rating after hiding: %v", page["rating"])
	}
	app.Do(t, http.MethodPatch, mod, testkit.Req{Token: staff, Body: map[string]any{"status": "published"}}).Expect(t, http.StatusOK)
	app.DB.Take(&prod, "id = ?", p.ID)
	if prod.RatingCount != 2 || prod.RatingTotal != 7 {
		t.Fatalf("counters after republishing: %d/%d", prod.RatingCount, prod.RatingTotal)
	}
	var audited int64
	app.DB.Model(&models.AdminAuditLog{}).Where("action = ? AND entity_id = ?", "review.moderate", other).Count(&audited)
	if audited != 3 {
		t.Fatalf("audit entries: %d", audited)
	}
	app.Do(t, http.MethodPatch, "/api/v1/admin/reviews/"+p.ID.String(), testkit.Req{Token: staff, Body: map[string]any{"status": "hidden"}}).
		ExpectError(t, http.StatusNotFound, "NOT_FOUND")
}
