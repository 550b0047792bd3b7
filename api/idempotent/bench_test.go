package idempotent_test

import (
	"io"
	"log/slog"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/api/idempotent"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/valyala/fasthttp"
)

// A request without Idempotency-Key never reaches the store (built here on
// no database at all) and is answered as without the middleware.
func TestRequestWithoutKeyCostsNoQuery(t *testing.T) {
	app := fiber.New()
	mw := idempotent.New(idempotency.New(nil), slog.New(slog.NewTextHandler(io.Discard, nil)))
	app.Post("/cart/items", mw.Handler(func(*fiber.Ctx) (string, error) { return "session:s", nil }),
		func(c *fiber.Ctx) error { return c.SendStatus(http.StatusCreated) })
	req, _ := http.NewRequest(http.MethodPost, "/cart/items", nil)
	resp, err := app.Test(req)
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("%v %v", resp, err)
	}
}

// BenchmarkMiddlewareWithoutKey is the cost of the middleware on a request
// without the header, against the same route without it.
func BenchmarkMiddlewareWithoutKey(b *testing.B) {
	for _, tc := range []struct {
		name string
		mw   bool
	}{{"bare", false}, {"middleware", true}} {
		b.Run(tc.name, func(b *testing.B) {
			app := fiber.New()
			h := func(c *fiber.Ctx) error { return c.Status(http.StatusCreated).SendString(`{"ok":true}`) }
			if tc.mw {
				mw := idempotent.New(idempotency.New(nil), slog.New(slog.NewTextHandler(io.Discard, nil)))
				app.Post("/cart/items", mw.Handler(func(*fiber.Ctx) (string, error) { return "session:s", nil }), h)
			} else {
				app.Post("/cart/items", h)
			}
			handler := app.Handler()
			var ctx fasthttp.RequestCtx
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				ctx.Request.Header.SetMethod(http.MethodPost)
				ctx.Request.SetRequestURI("/cart/items")
				ctx.Request.SetBodyString(`{"variantId":"x","quantity":1}`)
				handler(&ctx)
				ctx.Response.Reset()
			}
		})
	}
}

// BenchmarkAddItem is POST /cart/items through the whole service (real
// Postgres and Redis, over HTTP), each by a new guest, without and with a
// fresh Idempotency-Key.
func BenchmarkAddItem(b *testing.B) {
	app := testkit.MustApp(b)
	p := testkit.MustStoreProduct(b, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 1 << 30}}})
	body := map[string]any{"variantId": p.Variants[0].ID, "quantity": 1}
	for _, withKey := range []bool{false, true} {
		name := "without key"
		if withKey {
			name = "with key"
		}
		b.Run(name, func(b *testing.B) {
			for range b.N {
				r := guest()
				r.Body = body
				if withKey {
					r.Headers["Idempotency-Key"] = uuid.NewString()
				}
				app.Do(b, http.MethodPost, "/cart/items", r).Expect(b, http.StatusCreated)
			}
		})
	}
}
