// Command journey drives a running service through a client that
// oapi-codegen generated from docs/openapi.yaml (client.gen.go, which
// api/openapiclient/journey_test.go writes beside a copy of this file): an
// admin logs in and puts a product on sale; a guest browses, fills a cart
// and checks out creating an account; the gateway's signed capture webhook
// makes the order; the new customer reads it; the admin finds it in the
// order list.
//
// It reads SHOP_URL, SHOP_ADMIN_EMAIL, SHOP_ADMIN_PASSWORD and
// SHOP_WEBHOOK_SECRET, prints each step, and exits non-zero on the first
// surprise.
package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "journey:", err)
		os.Exit(1)
	}
	fmt.Println("journey: done")
}

func run(ctx context.Context) error {
	c, err := NewClientWithResponses(os.Getenv("SHOP_URL"))
	if err != nil {
		return err
	}
	stamp := fmt.Sprint(time.Now().UnixNano())

	// The admin logs in and puts a product with one variant on sale.
	login, err := c.AdminLoginWithResponse(ctx, nil, AdminLoginRequest{
		Email: os.Getenv("SHOP_ADMIN_EMAIL"), Password: os.Getenv("SHOP_ADMIN_PASSWORD")})
	if err := expect(login, err, http.StatusOK); err != nil {
		return fmt.Errorf("admin login: %w", err)
	}
	tokens, err := login.JSON200.AsAdminTokens()
	if err != nil || tokens.AccessToken == "" {
		return fmt.Errorf("admin login answered no tokens: %v %s", err, login.Body)
	}
	admin := bearer(tokens.AccessToken)
	active, gst := ProductCreateStatus("active"), ProductCreateGstRate(5)
	title := "Journey linen shirt " + stamp
	product, err := c.CreateProductWithResponse(ctx, nil, ProductCreate{Title: title, Price: 1499.5, GstRate: &gst, HsnCode: ptr("6205"), Status: &active}, admin)
	if err := expect(product, err, http.StatusCreated); err != nil {
		return fmt.Errorf("create product: %w", err)
	}
	units := 10
	variant, err := c.CreateVariantWithResponse(ctx, product.JSON201.Id, nil, VariantCreate{Sku: "JOURNEY-" + stamp, Inventory: &units}, admin)
	if err := expect(variant, err, http.StatusCreated); err != nil {
		return fmt.Errorf("create variant: %w", err)
	}
	fmt.Println("journey: admin put", title, "on sale")

	// A guest finds it, adds two to a cart and checks out with a password.
	list, err := c.ListStoreProductsWithResponse(ctx, &ListStoreProductsParams{Search: &title})
	if err := expect(list, err, http.StatusOK); err != nil {
		return fmt.Errorf("browse: %w", err)
	}
	if len(list.JSON200.Data) != 1 || list.JSON200.Data[0].Id != product.JSON201.Id {
		return fmt.Errorf("browse found %d products: %s", len(list.JSON200.Data), list.Body)
	}
	page, err := c.GetStoreProductWithResponse(ctx, product.JSON201.Slug)
	if err := expect(page, err, http.StatusOK); err != nil {
		return fmt.Errorf("product page: %w", err)
	}
	if len(page.JSON200.Variants) != 1 || page.JSON200.Variants[0].Available != units || page.JSON200.Price != 1499.5 {
		return fmt.Errorf("product page: %s", page.Body)
	}
	session := SessionId("journey-" + stamp)
	cart, err := c.AddCartItemWithResponse(ctx, &AddCartItemParams{XSessionId: &session},
		CartItemAdd{VariantId: variant.JSON201.Id, Quantity: 2})
	if err := expect(cart, err, http.StatusCreated); err != nil {
		return fmt.Errorf("add to cart: %w", err)
	}
	if cart.JSON201.Total != 2999 || len(cart.JSON201.Items) != 1 {
		return fmt.Errorf("cart: %s", cart.Body)
	}
	email, password := "journey-"+stamp+"@example.com", "journey-passphrase"
	var body CheckoutRequest
	if err := body.FromGuestCheckout(GuestCheckout{
		Email: openapi_types.Email(email), Name: "Journey Guest", Phone: "+91 98765 43210", Password: &password, ShippingCost: ptr(49.5),
		Address: AddressInput{Street: "12 MG Road", City: "Bengaluru", State: "Karnataka", Pincode: "560001", Country: "India"},
	}); err != nil {
		return err
	}
	checkout, err := c.CreateCheckoutWithResponse(ctx, &CreateCheckoutParams{XSessionId: &session}, body)
	if err := expect(checkout, err, http.StatusCreated); err != nil {
		return fmt.Errorf("checkout: %w", err)
	}
	// An online checkout answers the Checkout (a COD one, the order itself).
	online, err := checkout.JSON201.AsCheckout()
	if err != nil {
		return fmt.Errorf("checkout: %w", err)
	}
	intent := online.PaymentIntent
	if intent.Amount != 3048.5 || intent.Status != "CREATED" {
		return fmt.Errorf("checkout: %s", checkout.Body)
	}
	fmt.Println("journey: guest checked out", intent.PaymentIntentId, intent.Amount, intent.Currency)

	// The gateway reports the payment captured, signed with the shared secret.
	now := time.Now().Unix()
	event, err := json.Marshal(GatewayEvent{Id: ptr("evt_journey_" + stamp), Event: "payment.captured", CreatedAt: now,
		Payload: GatewayEventPayload{Payment: &GatewayPaymentWrapper{Entity: GatewayPayment{
			Id: "pay_journey_" + stamp, Entity: ptr("payment"), Amount: int64(math.Round(intent.Amount * 100)),
			Currency: intent.Currency, Status: "captured", OrderId: intent.PaymentIntentId, Method: ptr("upi"), CreatedAt: &now,
		}}}})
	if err != nil {
		return err
	}
	mac := hmac.New(sha256.New, []byte(os.Getenv("SHOP_WEBHOOK_SECRET")))
	mac.Write(event)
	signature := hex.EncodeToString(mac.Sum(nil))
	hook, err := c.ReceiveGatewayWebhookWithBodyWithResponse(ctx, &ReceiveGatewayWebhookParams{XGatewaySignature: &signature},
		"application/json", bytes.NewReader(event))
	if err := expect(hook, err, http.StatusOK); err != nil {
		return fmt.Errorf("webhook: %w", err)
	}
	if !hook.JSON200.Processed {
		return fmt.Errorf("webhook not processed: %s", hook.Body)
	}

	// The new customer signs in and reads the order the worker made.
	session2, err := c.LoginCustomerWithResponse(ctx, CustomerLogin{Email: email, Password: password})
	if err := expect(session2, err, http.StatusOK); err != nil {
		return fmt.Errorf("customer login: %w", err)
	}
	customer := bearer(session2.JSON200.AccessToken)
	var order StoreOrder
	for {
		orders, err := c.ListCustomerOrdersWithResponse(ctx, nil, customer)
		if err := expect(orders, err, http.StatusOK); err != nil {
			return fmt.Errorf("customer orders: %w", err)
		}
		if len(orders.JSON200.Data) == 1 {
			order = orders.JSON200.Data[0]
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("no order after the capture: %w", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
	one, err := c.GetCustomerOrderWithResponse(ctx, order.Id, customer)
	if err := expect(one, err, http.StatusOK); err != nil {
		return fmt.Errorf("customer order: %w", err)
	}
	if one.JSON200.Total != intent.Amount || one.JSON200.Status != "confirmed" || one.JSON200.PaymentStatus != "paid" ||
		len(one.JSON200.Items) != 1 || one.JSON200.Items[0].Quantity != 2 || one.JSON200.ShippingAddress.City != "Bengaluru" {
		return fmt.Errorf("customer order: %s", one.Body)
	}
	fmt.Println("journey: customer reads order", one.JSON200.OrderNumber)

	// The admin finds it by number and reads it.
	found, err := c.ListAdminOrdersWithResponse(ctx, &ListAdminOrdersParams{OrderNumber: &order.OrderNumber}, admin)
	if err := expect(found, err, http.StatusOK); err != nil {
		return fmt.Errorf("admin order list: %w", err)
	}
	if len(found.JSON200.Data) != 1 || found.JSON200.Data[0].Id != order.Id || found.JSON200.Data[0].Email != email {
		return fmt.Errorf("admin order list: %s", found.Body)
	}
	detail, err := c.GetAdminOrderWithResponse(ctx, order.Id, admin)
	if err := expect(detail, err, http.StatusOK); err != nil {
		return fmt.Errorf("admin order: %w", err)
	}
	if detail.JSON200.PaidTotal != intent.Amount || len(detail.JSON200.Payments) != 1 {
		return fmt.Errorf("admin order: %s", detail.Body)
	}
	fmt.Println("journey: admin finds order", detail.JSON200.OrderNumber, "paid", detail.JSON200.PaidTotal)
	return nil
}

// answer is what every generated response type offers.
type answer interface{ StatusCode() int }

// expect returns an error unless the call succeeded with status.
func expect(r answer, err error, status int) error {
	if err != nil {
		return err
	}
	if r.StatusCode() != status {
		return fmt.Errorf("status %d, want %d: %s", r.StatusCode(), status, bodyOf(r))
	}
	return nil
}

func bodyOf(r answer) []byte {
	b, _ := json.Marshal(r)
	return b
}

func bearer(token string) RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
}

func ptr[T any](v T) *T { return &v }
