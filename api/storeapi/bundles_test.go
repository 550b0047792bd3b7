package storeapi_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

func TestCartBundles(t *testing.T) {
	app := testkit.MustApp(t)
	tee := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 49900, GSTRate: 500})
	mug := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 4950, GSTRate: 1200})
	cup := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 9900, GSTRate: 1200})
	b := models.Bundle{ID: uuid.New(), Title: "Starter kit", IsActive: true, DiscountPercent: 1000}
	setA := models.BundleSet{ID: uuid.New(), BundleID: b.ID, Title: "Tee", MinQuantity: 1, MaxQuantity: 1}
	setB := models.BundleSet{ID: uuid.New(), BundleID: b.ID, Title: "Drinkware", MinQuantity: 1, MaxQuantity: 2, SortOrder: 1}
	for _, row := range []any{&b, &setA, &setB,
		&models.BundleSetItem{ID: uuid.New(), SetID: setA.ID, VariantID: tee.Variants[0].ID, Quantity: 1, IsDefault: true},
		&models.BundleSetItem{ID: uuid.New(), SetID: setB.ID, VariantID: mug.Variants[0].ID, Quantity: 2, IsDefault: true},
		&models.BundleSetItem{ID: uuid.New(), SetID: setB.ID, VariantID: cup.Variants[0].ID, Quantity: 1, SortOrder: 1},
	} {
		if err := app.DB.Omit("Sets", "Items").Create(row).Error; err != nil {
			t.Fatal(err)
		}
	}
	g := guest()
	// The default selection: one tee and a pair of mugs, 10% off their sum.
	cart := app.Do(t, http.MethodPost, "/cart/bundles", withBody(g, map[string]any{"bundleId": b.ID})).Expect(t, http.StatusCreated).Map(t)
	lines := items(cart)
	if len(lines) != 2 || cart["subtotal"].(float64) != 598 || cart["discountTotal"].(float64) != 59.8 ||
		cart["total"].(float64) != 538.2 || cart["taxTotal"].(float64) != 30.92 {
		t.Fatalf("bundle cart: %v", cart)
	}
	if lines[0]["bundleId"] != b.ID.String() || lines[0]["bundleSelection"] != lines[1]["bundleSelection"] ||
		lines[0]["discountAmount"].(float64) != 49.9 || lines[1]["discountAmount"].(float64) != 9.9 {
		t.Fatalf("bundle lines: %v", lines)
	}
	// A bundle's lines change together.
	app.Do(t, http.MethodPatch, "/cart/items/"+lines[1]["id"].(string), withBody(g, map[string]any{"quantity": 4})).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	// The selection must follow the bundle's sets.
	app.Do(t, http.MethodPost, "/cart/bundles", withBody(g, map[string]any{"bundleId": b.ID, "items": []map[string]any{
		{"variantId": tee.Variants[0].ID, "quantity": 1}, {"variantId": mug.Variants[0].ID, "quantity": 2}, {"variantId": cup.Variants[0].ID, "quantity": 1},
	}})).ExpectField(t, "items")
	app.Do(t, http.MethodPost, "/cart/bundles", withBody(g, map[string]any{"bundleId": b.ID, "items": []map[string]any{
		{"variantId": tee.Variants[0].ID, "quantity": 1}, {"variantId": mug.Variants[0].ID, "quantity": 3},
	}})).ExpectField(t, "items[1].quantity")
	app.Do(t, http.MethodPost, "/cart/bundles", withBody(g, map[string]any{"bundleId": uuid.New()})).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	// A chosen selection, added as a second bundle.
	cart = app.Do(t, http.MethodPost, "/cart/bundles", withBody(g, map[string]any{"bundleId": b.ID, "items": []map[string]any{
		{"variantId": tee.Variants[0].ID, "quantity": 1}, {"variantId": cup.Variants[0].ID, "quantity": 2},
	}})).Expect(t, http.StatusCreated).Map(t)
	if len(items(cart)) != 4 {
		t.Fatalf("two bundles: %v", cart)
	}
	// Removing one line removes its whole selection.
	app.Do(t, http.MethodDelete, "/cart/items/"+lines[0]["id"].(string), g).Expect(t, http.StatusNoContent)
	cart = app.Do(t, http.MethodGet, "/cart", g).Map(t)
	// tee 499 + 2 cups 198 = 697, 10% = 69.70
	if len(items(cart)) != 2 || cart["subtotal"].(float64) != 697 || cart["discountTotal"].(float64) != 69.7 {
		t.Fatalf("after removing the first bundle: %v", cart)
	}

	// The checkout snapshot carries the bundle's discount per line.
	res := app.Do(t, http.MethodPost, "/orders", withBody(g, guestCheckout(uniqueEmail("bundle")))).Expect(t, http.StatusCreated).Map(t)
	var s models.CheckoutSession
	app.DB.Take(&s, "id = ?", res["checkoutSessionId"])
	var snap []models.CheckoutLine
	json.Unmarshal(s.Lines, &snap)
	if len(snap) != 2 || snap[0].BundleID == nil || snap[0].DiscountAmount+snap[1].DiscountAmount != 6970 ||
		s.Total != 62730+4950 || snap[0].LineTotal+snap[1].LineTotal != 62730 {
		t.Fatalf("session %+v lines %+v", s, snap)
	}

	// A bundle that changes under a cart loses its discount and blocks checkout.
	g2 := guest()
	app.Do(t, http.MethodPost, "/cart/bundles", withBody(g2, map[string]any{"bundleId": b.ID})).Expect(t, http.StatusCreated)
	app.DB.Model(&models.Bundle{}).Where("id = ?", b.ID).Update("is_active", false)
	cart = app.Do(t, http.MethodGet, "/cart", g2).Map(t)
	if cart["discountTotal"].(float64) != 0 || items(cart)[0]["bundleIssue"] == nil {
		t.Fatalf("cart with a withdrawn bundle: %v", cart)
	}
	app.Do(t, http.MethodPost, "/orders", withBody(g2, guestCheckout(uniqueEmail("bundle2")))).ExpectError(t, http.StatusConflict, "CONFLICT")
}
