package storeapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
)

func TestReviews(t *testing.T) {
	app := testkit.MustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "Kadai"})
	buyer, buyerToken := testkit.MustCustomer(t, app)
	_, otherToken := testkit.MustCustomer(t, app)
	mustOrder(t, app.DB, buyer.ID, p, time.Now())
	path := "/products/" + p.ID.String() + "/reviews"

	r := app.Do(t, http.MethodPost, path, testkit.Req{Token: buyerToken, Body: map[string]any{"rating": 5, "comment": "Heats evenly"}}).
		Expect(t, http.StatusCreated).Map(t)
	if r["verifiedPurchase"] != true || r["rating"].(float64) != 5 || r["authorName"] != "Test S." {
		t.Fatalf("review: %v", r)
	}
	app.Do(t, http.MethodPost, path, testkit.Req{Token: buyerToken, Body: map[string]any{"rating": 4}}).ExpectError(t, http.StatusConflict, "CONFLICT")
	other := app.Do(t, http.MethodPost, "/products/"+p.Slug+"/reviews", testkit.Req{Token: otherToken, Body: map[string]any{"rating": 2}}).
		Expect(t, http.StatusCreated).Map(t)
	if other["verifiedPurchase"] != false {
		t.Fatalf("unverified review: %v", other)
	}
	for name, body := range map[string]map[string]any{
		"rating 0": {"rating": 0}, "rating 6": {"rating": 6}, "long comment": {"rating": 3, "comment": strings.Repeat("a", 2001)},
	} {
		_, tok := testkit.MustCustomer(t, app)
		if resp := app.Do(t, http.MethodPost, path, testkit.Req{Token: tok, Body: body, Invalid: true}); resp.Status != http.StatusBadRequest {
			t.Errorf("%s: %d", name, resp.Status)
		}
	}
	app.Do(t, http.MethodPost, path, testkit.Req{Body: map[string]any{"rating": 3}}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")

	list := app.Do(t, http.MethodGet, path, testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	sum := list["summary"].(map[string]any)
	if sum["average"].(float64) != 3.5 || sum["count"].(float64) != 2 || len(list["data"].([]any)) != 2 {
		t.Fatalf("reviews: %v", list)
	}
	if page := app.Do(t, http.MethodGet, "/products/"+p.ID.String(), testkit.Req{}).Map(t); page["rating"].(map[string]any)["count"].(float64) != 2 {
		t.Fatalf("product rating: %v", page["rating"])
	}
	// Moderation (GET and PATCH /api/v1/admin/reviews) is tested in api/reviewapi.
}
