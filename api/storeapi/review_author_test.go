package storeapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// Public review listings show the author's first name and last initial,
// never the full name; staff moderating still see it.
func TestPublicReviewsHideFullNames(t *testing.T) {
	app := testkit.MustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "Tawa"})
	path := "/products/" + p.ID.String() + "/reviews"
	want := map[string]string{} // comment → public author name
	for i, tc := range []struct{ name, public string }{
		{"Priya Devi Sharma", "Priya S."},
		{"Madonna", "Madonna"},
		{"", ""},
	} {
		cu, token := testkit.MustCustomer(t, app)
		if err := app.DB.Model(&models.Customer{}).Where("id = ?", cu.ID).Update("name", tc.name).Error; err != nil {
			t.Fatal(err)
		}
		comment := "review " + string(rune('a'+i))
		want[comment] = tc.public
		r := app.Do(t, http.MethodPost, path, testkit.Req{Token: token, Body: map[string]any{"rating": 4, "comment": comment}}).
			Expect(t, http.StatusCreated).Map(t)
		if r["authorName"] != tc.public {
			t.Fatalf("created review of %q shows author %q, want %q", tc.name, r["authorName"], tc.public)
		}
	}
	resp := app.Do(t, http.MethodGet, path, testkit.Req{}).Expect(t, http.StatusOK)
	if strings.Contains(string(resp.Body), "Sharma") || strings.Contains(string(resp.Body), "Devi") {
		t.Fatalf("public listing shows a full name: %s", resp.Body)
	}
	list := resp.Map(t)
	for _, it := range list["data"].([]any) {
		r := it.(map[string]any)
		if got, w := r["authorName"], want[r["comment"].(string)]; got != w {
			t.Errorf("%s: author %q, want %q", r["comment"], got, w)
		}
	}
	_, viewer := testkit.MustAdmin(t, app, models.RoleViewer)
	admin := app.Do(t, http.MethodGet, "/api/v1/admin/reviews?productId="+p.ID.String(), testkit.Req{Token: viewer}).Expect(t, http.StatusOK)
	if !strings.Contains(string(admin.Body), "Priya Devi Sharma") {
		t.Fatalf("moderation list lost the full name: %s", admin.Body)
	}
}
