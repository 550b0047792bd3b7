package promotionapi_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// The administrator creates, reads and edits each promotion type; every
// field is validated and a bad one is a 400 naming it.
func TestPromotionAdminValidatesEveryField(t *testing.T) {
	s := mustStore(t)
	p := s.product(t, 50000, "6109")
	coll := s.collection(t, p)
	pid := p.ID.String()
	good := func() map[string]any {
		return map[string]any{"type": "buy_x_get_y", "applicationType": "AUTOMATIC",
			"buy": map[string]any{"quantity": 2, "productIds": []string{pid}},
			"get": map[string]any{"quantity": 1, "collectionIds": []string{coll}, "percentOff": 100}, "maxApplications": 2,
			"combinesWith": map[string]any{"product": false, "order": true, "shipping": true}}
	}
	with := func(base map[string]any, k string, v any) map[string]any { base[k] = v; return base }
	tiered := func(tiers ...any) map[string]any {
		return map[string]any{"type": "tiered", "code": "TIER" + uuid.NewString()[:6], "tiers": tiers}
	}
	missing := uuid.NewString()
	bad := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"unknown type", with(good(), "type", "bogo"), "type"},
		{"value on a promotion", with(good(), "value", 10), "value"},
		{"no buy", with(good(), "buy", nil), "buy"},
		{"no get", with(good(), "get", nil), "get"},
		{"buy quantity 0", with(good(), "buy", map[string]any{"quantity": 0, "productIds": []string{pid}}), "buy.quantity"},
		{"buy names nothing", with(good(), "buy", map[string]any{"quantity": 1}), "buy.productIds"},
		{"get percent 0", with(good(), "get", map[string]any{"quantity": 1, "productIds": []string{pid}, "percentOff": 0}), "get.percentOff"},
		{"get percent above 100", with(good(), "get", map[string]any{"quantity": 1, "productIds": []string{pid}, "percentOff": 100.5}), "get.percentOff"},
		{"maxApplications 0", with(good(), "maxApplications", 0), "maxApplications"},
		{"unknown product", with(good(), "buy", map[string]any{"quantity": 1, "productIds": []string{missing}}), "buy.productIds"},
		{"unknown collection", with(good(), "get", map[string]any{"quantity": 1, "collectionIds": []string{missing}, "percentOff": 10}), "get.collectionIds"},
		{"unknown category", with(good(), "buy", map[string]any{"quantity": 1, "categoryIds": []string{missing}}), "buy.categoryIds"},
		{"tiers on buy x get y", with(good(), "tiers", []any{map[string]any{"minSubtotal": 1, "amountOff": 1}}), "tiers"},
		{"product scope", with(good(), "scope", "PRODUCT"), "scope"},
		{"no tiers", tiered(), "tiers"},
		{"tier with both", tiered(map[string]any{"minSubtotal": 100, "amountOff": 10, "percentOff": 5}), "tiers[0]"},
		{"tier with neither", tiered(map[string]any{"minSubtotal": 100}), "tiers[0]"},
		{"tier amount 0", tiered(map[string]any{"minSubtotal": 100, "amountOff": 0}), "tiers[0].amountOff"},
		{"tier percent above 100", tiered(map[string]any{"minSubtotal": 100, "percentOff": 101}), "tiers[0].percentOff"},
		{"negative tier minimum", tiered(map[string]any{"minSubtotal": -1, "amountOff": 1}), "tiers[0].minSubtotal"},
		{"two tiers at one minimum", tiered(map[string]any{"minSubtotal": 100, "amountOff": 1}, map[string]any{"minSubtotal": 100, "amountOff": 2}), "tiers"},
		{"free shipping negative minimum", map[string]any{"type": "free_shipping", "code": "SHIPFREE1", "minSubtotal": -1}, "minSubtotal"},
		{"free shipping unknown zone", map[string]any{"type": "free_shipping", "code": "SHIPFREE2", "zoneIds": []string{missing}}, "zoneIds"},
		{"zones on a percentage", map[string]any{"type": "PERCENTAGE", "value": 10, "code": "PCT10X", "zoneIds": []string{s.zoneKA}}, "zoneIds"},
		{"buy on a fixed amount", map[string]any{"type": "FIXED_AMOUNT", "value": 10, "code": "FIX10X",
			"buy": map[string]any{"quantity": 1, "productIds": []string{pid}}}, "buy"},
		{"a manual promotion needs a code", map[string]any{"type": "free_shipping", "applicationType": "MANUAL"}, "code"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			s.app.Do(t, http.MethodPost, "/api/v1/admin/discounts", testkit.Req{Token: s.token, Body: tc.body, Invalid: true}).
				ExpectField(t, tc.field)
		})
	}

	type view struct {
		ID   string `json:"id"`
		Type string `json:"type"`
		Buy  *struct {
			Quantity   int      `json:"quantity"`
			ProductIDs []string `json:"productIds"`
		} `json:"buy"`
		Get *struct {
			Quantity      int        `json:"quantity"`
			CollectionIDs []string   `json:"collectionIds"`
			PercentOff    money.Rate `json:"percentOff"`
		} `json:"get"`
		MaxApplications *int `json:"maxApplications"`
		Tiers           []struct {
			MinSubtotal money.Amount  `json:"minSubtotal"`
			AmountOff   *money.Amount `json:"amountOff"`
			PercentOff  *money.Rate   `json:"percentOff"`
		} `json:"tiers"`
		MinSubtotal  money.Amount                            `json:"minSubtotal"`
		ZoneIDs      []string                                `json:"zoneIds"`
		CombinesWith struct{ Product, Order, Shipping bool } `json:"combinesWith"`
	}
	var v view
	s.app.Do(t, http.MethodPost, "/api/v1/admin/discounts", testkit.Req{Token: s.token, Body: good()}).Expect(t, http.StatusCreated).JSON(t, &v)
	s.app.Do(t, http.MethodGet, "/api/v1/admin/discounts/"+v.ID, testkit.Req{Token: s.token}).Expect(t, http.StatusOK).JSON(t, &v)
	if v.Type != "buy_x_get_y" || v.Buy == nil || v.Buy.Quantity != 2 || v.Buy.ProductIDs[0] != pid || v.Get == nil ||
		v.Get.CollectionIDs[0] != coll || v.Get.PercentOff != 10000 || v.MaxApplications == nil || *v.MaxApplications != 2 ||
		v.CombinesWith.Product || !v.CombinesWith.Order || !v.CombinesWith.Shipping {
		t.Fatalf("read back %+v", v)
	}
	path := "/api/v1/admin/discounts/" + v.ID
	s.app.Do(t, http.MethodPatch, path, testkit.Req{Token: s.token, Body: map[string]any{"maxApplications": nil,
		"get": map[string]any{"quantity": 2, "collectionIds": []string{coll}, "percentOff": 50}}}).Expect(t, http.StatusOK).JSON(t, &v)
	if v.MaxApplications != nil || v.Get.Quantity != 2 || v.Get.PercentOff != 5000 {
		t.Fatalf("edited %+v", v)
	}
	s.app.Do(t, http.MethodPatch, path, testkit.Req{Token: s.token, Body: map[string]any{"maxApplications": 0}, Invalid: true}).
		ExpectField(t, "maxApplications")
	// Becoming tiered drops buy and get; tiers come back sorted.
	s.app.Do(t, http.MethodPatch, path, testkit.Req{Token: s.token, Body: map[string]any{"type": "tiered", "tiers": []any{
		map[string]any{"minSubtotal": 2999, "amountOff": 500}, map[string]any{"minSubtotal": 1499, "percentOff": 10}}}}).
		Expect(t, http.StatusOK).JSON(t, &v)
	if v.Type != "tiered" || v.Buy != nil || v.Get != nil || len(v.Tiers) != 2 || v.Tiers[0].MinSubtotal != 149900 ||
		v.Tiers[0].PercentOff == nil || *v.Tiers[0].PercentOff != 1000 || v.Tiers[1].AmountOff == nil || *v.Tiers[1].AmountOff != 50000 {
		t.Fatalf("tiered %+v", v)
	}
	s.app.Do(t, http.MethodPatch, path, testkit.Req{Token: s.token, Body: map[string]any{"type": "free_shipping",
		"minSubtotal": 999, "zoneIds": []string{s.zoneKA}}}).Expect(t, http.StatusOK).JSON(t, &v)
	if v.Type != "free_shipping" || len(v.Tiers) != 0 || v.MinSubtotal != 99900 || len(v.ZoneIDs) != 1 || v.ZoneIDs[0] != s.zoneKA {
		t.Fatalf("free shipping %+v", v)
	}
	// An existing kind keeps working with the defaults: no combinations.
	var pct view
	s.app.Do(t, http.MethodPost, "/api/v1/admin/discounts", testkit.Req{Token: s.token, Body: map[string]any{
		"code": "KEEP10", "type": "PERCENTAGE", "value": 10}}).Expect(t, http.StatusCreated).JSON(t, &pct)
	if pct.Type != "PERCENTAGE" || pct.Buy != nil || len(pct.Tiers) != 0 || pct.CombinesWith.Order || pct.CombinesWith.Product || pct.CombinesWith.Shipping {
		t.Fatalf("percentage %+v", pct)
	}
}
