package messageapi_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/api/messageapi"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/testkit"
)

// The settings refuse what the providers would (an SMS template without
// its 19-digit DLT template id or 6-character sender, an unknown event or
// channel), staff cannot change them; a blocked pincode makes COD
// unavailable with reason pincode and a COD checkout there 400; the
// providers' webhooks answer 401 unless verified as the providers verify
// them (MSG91's token, Meta's verify token and signature).
func TestSettingsPincodesAndWebhookVerification(t *testing.T) {
	s := newShop(t, false)
	put := func(events map[string]any) *testkit.Response {
		return s.Do(t, http.MethodPut, "/api/v1/admin/settings/messages", testkit.Req{Token: s.super, Body: map[string]any{"events": events},
			Invalid: true}) // most break the document's patterns on purpose
	}
	bad := demoEvent(messaging.EventShipped, "sms")
	bad["sms"].(map[string]any)["dltTemplateId"] = "12345"
	put(map[string]any{messaging.EventShipped: bad}).ExpectField(t, "events.shipped.sms.dltTemplateId")
	bad = demoEvent(messaging.EventShipped, "sms")
	bad["sms"].(map[string]any)["senderId"] = "SHOP"
	put(map[string]any{messaging.EventShipped: bad}).ExpectField(t, "events.shipped.sms.senderId")
	put(map[string]any{"birthday": demoEvent(messaging.EventShipped, "sms")}).ExpectField(t, "events.birthday")
	put(map[string]any{messaging.EventShipped: demoEvent(messaging.EventShipped, "fax")}).ExpectField(t, "events.shipped.channels")
	_, staff := testkit.MustAdmin(t, s.App, "staff")
	s.Do(t, http.MethodPut, "/api/v1/admin/settings/messages", testkit.Req{Token: staff,
		Body: map[string]any{"events": map[string]any{}}}).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	var set messaging.Settings
	put(map[string]any{messaging.EventNDR: demoEvent(messaging.EventNDR, "whatsapp")}).Expect(t, http.StatusOK).JSON(t, &set)
	if len(set.Events) != len(messaging.Events) || set.Events[messaging.EventNDR].Channels[0] != "whatsapp" ||
		len(set.Events[messaging.EventShipped].Channels) != 0 {
		t.Fatalf("settings %+v", set)
	}

	// Blocked pincode.
	s.paymentSettings(t, map[string]any{"blockedPincodes": []string{"560001", "110001"}})
	s.Do(t, http.MethodPut, "/api/v1/admin/settings/payments", testkit.Req{Token: s.super, Body: map[string]any{
		"cod": map[string]any{"enabled": true, "blockedPincodes": []string{"5600"}}}, Invalid: true}).ExpectField(t, "cod.blockedPincodes")
	p := testkit.MustStoreProduct(t, s.DB, testkit.StoreProduct{Price: 50000, Variants: []testkit.StoreVariant{{Inventory: 5}}})
	g := guest()
	s.Do(t, http.MethodPost, "/cart/items", with(g, map[string]any{"variantId": p.Variants[0].ID, "quantity": 1})).Expect(t, http.StatusCreated)
	var opts struct {
		Data []struct {
			Method    string  `json:"method"`
			Available bool    `json:"available"`
			Reason    *string `json:"reason"`
		} `json:"data"`
	}
	s.Do(t, http.MethodGet, "/cart/payment-options?state=Karnataka&pincode=560001", g).Expect(t, http.StatusOK).JSON(t, &opts)
	if opts.Data[1].Available || opts.Data[1].Reason == nil || *opts.Data[1].Reason != "pincode" {
		t.Fatalf("options at a blocked pincode %+v", opts.Data)
	}
	s.Do(t, http.MethodGet, "/cart/payment-options?state=Karnataka&pincode=560002", g).Expect(t, http.StatusOK).JSON(t, &opts)
	if !opts.Data[1].Available {
		t.Fatalf("options elsewhere %+v", opts.Data)
	}
	e := s.Do(t, http.MethodPost, "/orders", with(g, codCheckoutBody(uniquePhone(), "560001", nil))).ExpectField(t, "paymentMethod")
	if e.Error.Details["reason"] != "pincode" {
		t.Fatalf("refusal %+v", e.Error.Details)
	}
	s.Do(t, http.MethodPost, "/orders", with(g, codCheckoutBody(uniquePhone(), "560002", nil))).Expect(t, http.StatusCreated)

	// Webhook verification.
	s.Do(t, http.MethodPost, messageapi.SMSReceiptsPath+"?token=wrong", testkit.Req{Body: []any{}, Invalid: true}).
		ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	s.Do(t, http.MethodPost, messageapi.SMSInboundPath, testkit.Req{Body: map[string]any{"sender": "9800000000", "message": "STOP"}, Invalid: true}).
		ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	body := []byte(`{"object":"whatsapp_business_account","entry":[]}`)
	s.Do(t, http.MethodPost, messageapi.WhatsAppPath, testkit.Req{Body: body,
		Headers: map[string]string{messaging.SignatureHeader: messaging.Sign("not-the-secret", body)}}).
		ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	s.Do(t, http.MethodPost, messageapi.WhatsAppPath, testkit.Req{Body: body,
		Headers: map[string]string{messaging.SignatureHeader: messaging.Sign(s.Config.WhatsAppAppSecret, body)}}).Expect(t, http.StatusOK)
	verify := messageapi.WhatsAppPath + "?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token="
	if r := s.Do(t, http.MethodGet, verify+s.Config.WhatsAppVerifyToken, testkit.Req{}).Expect(t, http.StatusOK); string(r.Body) != "1158201444" {
		t.Fatalf("challenge answered %q", r.Body)
	}
	s.Do(t, http.MethodGet, verify+"guess", testkit.Req{}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
}
