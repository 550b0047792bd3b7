package storeapi_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// mergeWarning is one entry of a merged cart's warnings.
type mergeWarning struct {
	Code            string  `json:"code"`
	Message         string  `json:"message"`
	VariantID       string  `json:"variantId"`
	BundleSelection *string `json:"bundleSelection"`
	Requested       int     `json:"requested"`
	Merged          int     `json:"merged"`
}

type mergedCart struct {
	Items []struct {
		VariantID       string  `json:"variantId"`
		Quantity        int     `json:"quantity"`
		BundleSelection *string `json:"bundleSelection"`
	} `json:"items"`
	Warnings []mergeWarning `json:"warnings"`
}

// units sums the cart's units of each variant over all its lines.
func (c mergedCart) units() map[string]int {
	out := map[string]int{}
	for _, it := range c.Items {
		out[it.VariantID] += it.Quantity
	}
	return out
}

func (c mergedCart) warning(t *testing.T, variantID uuid.UUID) mergeWarning {
	t.Helper()
	for _, w := range c.Warnings {
		if w.VariantID == variantID.String() {
			return w
		}
	}
	t.Fatalf("no warning for variant %s: %+v", variantID, c.Warnings)
	return mergeWarning{}
}

// Merging a guest cart into the customer's keeps the stock rule an add
// meets: a variant's units in the cart stay within its available stock
// (the rest is left out, a line with nothing left is dropped), a bundle
// selection moves whole or not at all, a line stays within 1000 units,
// and each line that did not move whole is reported in warnings.
func TestCartMergeKeepsStockLimits(t *testing.T) {
	app := testkit.MustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{
		{Inventory: 5}, {Inventory: 2}, {Inventory: 2000}, {Inventory: 10}}})
	a, b, c, d := p.Variants[0].ID, p.Variants[1].ID, p.Variants[2].ID, p.Variants[3].ID
	tee := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{})
	mug := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 3}}})
	bundle := models.Bundle{ID: uuid.New(), Title: "Tea set", IsActive: true, DiscountPercent: 1000}
	teeSet := models.BundleSet{ID: uuid.New(), BundleID: bundle.ID, Title: "Tee", MinQuantity: 1, MaxQuantity: 1}
	mugSet := models.BundleSet{ID: uuid.New(), BundleID: bundle.ID, Title: "Mugs", MinQuantity: 1, MaxQuantity: 1, SortOrder: 1}
	for _, row := range []any{&bundle, &teeSet, &mugSet,
		&models.BundleSetItem{ID: uuid.New(), SetID: teeSet.ID, VariantID: tee.Variants[0].ID, Quantity: 1, IsDefault: true},
		&models.BundleSetItem{ID: uuid.New(), SetID: mugSet.ID, VariantID: mug.Variants[0].ID, Quantity: 2, IsDefault: true},
	} {
		if err := app.DB.Omit("Sets", "Items").Create(row).Error; err != nil {
			t.Fatal(err)
		}
	}
	_, token := testkit.MustCustomer(t, app)
	customer := testkit.Req{Token: token}
	addItem(t, app, customer, a, 3)
	addItem(t, app, customer, b, 2)
	addItem(t, app, customer, c, 900)
	addItem(t, app, customer, mug.Variants[0].ID, 2)
	g := guest()
	addItem(t, app, g, a, 4)   // 3 + 4 > 5 available: 2 move
	addItem(t, app, g, b, 1)   // the customer holds all 2: dropped
	addItem(t, app, g, c, 300) // 900 + 300 > 1000 a line: 100 move
	addItem(t, app, g, d, 1)   // moves whole
	app.Do(t, http.MethodPost, "/cart/bundles", withBody(g, map[string]any{"bundleId": bundle.ID})).Expect(t, http.StatusCreated)

	var merged mergedCart
	app.Do(t, http.MethodGet, "/cart", testkit.Req{Token: token, Headers: g.Headers}).Expect(t, http.StatusOK).JSON(t, &merged)
	units := merged.units()
	if units[a.String()] != 5 || units[b.String()] != 2 || units[c.String()] != 1000 || units[d.String()] != 1 ||
		units[mug.Variants[0].ID.String()] != 2 || units[tee.Variants[0].ID.String()] != 0 {
		t.Fatalf("merged units %v", units)
	}
	for _, tc := range []struct {
		variant           uuid.UUID
		code              string
		requested, merged int
		bundle            bool
	}{
		{a, "NOT_ENOUGH_STOCK", 4, 2, false},
		{b, "NOT_ENOUGH_STOCK", 1, 0, false},
		{c, "LINE_LIMIT", 300, 100, false},
		{tee.Variants[0].ID, "NOT_ENOUGH_STOCK", 1, 0, true},
		{mug.Variants[0].ID, "NOT_ENOUGH_STOCK", 2, 0, true},
	} {
		w := merged.warning(t, tc.variant)
		if w.Code != tc.code || w.Requested != tc.requested || w.Merged != tc.merged || (w.BundleSelection != nil) != tc.bundle || w.Message == "" {
			t.Errorf("variant %s: warning %+v, want %s %d→%d", tc.variant, w, tc.code, tc.requested, tc.merged)
		}
	}
	if len(merged.Warnings) != 5 {
		t.Errorf("warnings %+v, want 5", merged.Warnings)
	}
	// The guest cart is empty; the next answer has nothing to report.
	if guestCart := app.Do(t, http.MethodGet, "/cart", g).Map(t); len(items(guestCart)) != 0 {
		t.Fatalf("guest cart after merge: %v", guestCart)
	}
	again := app.Do(t, http.MethodGet, "/cart", testkit.Req{Token: token, Headers: g.Headers}).Expect(t, http.StatusOK).Map(t)
	if _, ok := again["warnings"]; ok || len(items(again)) != len(merged.Items) {
		t.Fatalf("second merge: %v", again)
	}
}

// Merging never takes the customer's cart past 100 lines: guest lines of
// variants already in the cart still add up, new lines beyond the cap are
// left out and reported.
func TestCartMergeKeepsLineCap(t *testing.T) {
	app := testkit.MustApp(t)
	variants := make([]testkit.StoreVariant, 102)
	for i := range variants {
		variants[i] = testkit.StoreVariant{Inventory: 10}
	}
	v := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: variants}).Variants
	_, token := testkit.MustCustomer(t, app)
	customer := testkit.Req{Token: token}
	for i := 0; i < 99; i++ {
		addItem(t, app, customer, v[i].ID, 1)
	}
	g := guest()
	for _, i := range []int{0, 99, 100, 101} {
		addItem(t, app, g, v[i].ID, 1)
	}
	var merged mergedCart
	app.Do(t, http.MethodGet, "/cart", testkit.Req{Token: token, Headers: g.Headers}).Expect(t, http.StatusOK).JSON(t, &merged)
	units := merged.units()
	if len(merged.Items) != 100 || units[v[0].ID.String()] != 2 || units[v[99].ID.String()] != 1 ||
		units[v[100].ID.String()] != 0 || units[v[101].ID.String()] != 0 {
		t.Fatalf("%d lines, units %v", len(merged.Items), units)
	}
	for _, i := range []int{100, 101} {
		if w := merged.warning(t, v[i].ID); w.Code != "CART_FULL" || w.Requested != 1 || w.Merged != 0 {
			t.Errorf("variant %d: warning %+v", i, w)
		}
	}
	if len(merged.Warnings) != 2 {
		t.Errorf("warnings %+v, want 2", merged.Warnings)
	}
}

// Several requests merging one guest cart at once (tabs reloading after
// sign-in) merge it once: the stock limit holds and one answer reports.
func TestConcurrentCartMerges(t *testing.T) {
	app := testkit.MustApp(t)
	v := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 5}}}).Variants[0].ID
	_, token := testkit.MustCustomer(t, app)
	addItem(t, app, testkit.Req{Token: token}, v, 3)
	g := guest()
	addItem(t, app, g, v, 4)

	const n = 8
	answers := make([]mergedCart, n)
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := app.Do(t, http.MethodGet, "/cart", testkit.Req{Token: token, Headers: g.Headers})
			statuses[i] = r.Status
			if r.Status == http.StatusOK {
				r.JSON(t, &answers[i])
			}
		}(i)
	}
	wg.Wait()
	reported := 0
	for i, a := range answers {
		if statuses[i] != http.StatusOK || a.units()[v.String()] != 5 {
			t.Fatalf("answer %d: status %d, cart %+v", i, statuses[i], a)
		}
		reported += len(a.Warnings)
	}
	if reported != 1 {
		t.Fatalf("%d warnings over all answers, want 1", reported)
	}
}
