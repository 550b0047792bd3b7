package security_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// Quantities a client could send to make stock or totals go wrong.
func TestHostileQuantities(t *testing.T) {
	app := mustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 5}}})
	hdr := map[string]string{"X-Session-Id": "hostile-quantities-1"}
	before := snapshot(t, app.DB, "carts", "cart_items", "variants", "stock_reservations")
	for name, q := range map[string]string{
		"negative": "-1", "zero": "0", "huge": "1000000000000", "over the cap": "1001",
		"fractional": "1.5", "string": `"1"`, "exponent": "1e2", "null": "null",
	} {
		t.Run(name, func(t *testing.T) {
			body := `{"variantId":"` + p.Variants[0].ID.String() + `","quantity":` + q + `}`
			r := app.Do(t, "POST", "/cart/items", testkit.Req{Headers: hdr, Body: body, Invalid: true})
			r.ExpectField(t, "quantity")
			unchanged(t, app.DB, before)
		})
	}
	t.Run("more than in stock", func(t *testing.T) {
		body := `{"variantId":"` + p.Variants[0].ID.String() + `","quantity":6}`
		app.Do(t, "POST", "/cart/items", testkit.Req{Headers: hdr, Body: body}).ExpectError(t, http.StatusConflict, "CONFLICT")
		unchanged(t, app.DB, before)
	})
}

// API8 injection: search terms with SQL and LIKE metacharacters are data.
func TestSearchMetacharacters(t *testing.T) {
	app := mustApp(t)
	testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "Flat 50% off tee"})
	testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "snake_case mug"})
	testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "Plain tee"})
	before := snapshot(t, app.DB, "products", "variants", "categories")
	tests := []struct {
		search string
		want   int
	}{
		{"%", 1},
		{"_", 1},
		{"50%", 1},
		{`\`, 0},
		{"'; DROP TABLE products; --", 0},
		{"' OR '1'='1", 0},
		{"tee", 2},
	}
	for _, tt := range tests {
		t.Run(tt.search, func(t *testing.T) {
			var body struct {
				Data []map[string]any `json:"data"`
			}
			app.Do(t, "GET", "/products?search="+urlEncode(tt.search), testkit.Req{}).Expect(t, 200).JSON(t, &body)
			if len(body.Data) != tt.want {
				t.Fatalf("search %q found %d products, want %d", tt.search, len(body.Data), tt.want)
			}
			unchanged(t, app.DB, before)
		})
	}
}

// API4 unrestricted resource consumption: huge and deeply nested bodies.
func TestOversizedAndNestedBodies(t *testing.T) {
	app := mustApp(t)
	before := snapshot(t, app.DB, "customers", "carts", "cart_items")
	t.Run("deeply nested JSON", func(t *testing.T) {
		nested := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
		app.Do(t, "POST", "/customers/register", testkit.Req{Body: nested, Invalid: true}).ExpectError(t, 400, "VALIDATION_ERROR")
		app.Do(t, "POST", "/cart/items", testkit.Req{Headers: map[string]string{"X-Session-Id": "nested-bodies-1"},
			Body: `{"variantId":` + nested + `}`, Invalid: true}).ExpectError(t, 400, "VALIDATION_ERROR")
		unchanged(t, app.DB, before)
	})
	t.Run("10 MB body", func(t *testing.T) {
		for _, framing := range []string{"Content-Length", "chunked"} {
			t.Run(framing, func(t *testing.T) {
				status, body := postHuge(t, app.URL, "/customers/register", framing, 10<<20)
				if status != http.StatusRequestEntityTooLarge || !strings.Contains(body, `"code":"VALIDATION_ERROR"`) {
					t.Fatalf("status %d body %.300s", status, body)
				}
				unchanged(t, app.DB, before)
			})
		}
	})
	t.Run("non-JSON body", func(t *testing.T) {
		app.Do(t, "POST", "/customers/login", testkit.Req{Body: "email=a&password=b", Invalid: true}).ExpectError(t, 400, "VALIDATION_ERROR")
		unchanged(t, app.DB, before)
	})
	t.Run("invalid guest session ids", func(t *testing.T) {
		for _, sid := range []string{"short", strings.Repeat("a", 129), "has space in it", "semi;colon-123", "../../etc/passwd"} {
			app.Do(t, "GET", "/cart", testkit.Req{Headers: map[string]string{"X-Session-Id": sid}, Invalid: true}).ExpectError(t, 400, "VALIDATION_ERROR")
			app.Do(t, "POST", "/cart/items", testkit.Req{Headers: map[string]string{"X-Session-Id": sid},
				Body: map[string]any{"variantId": "00000000-0000-4000-8000-000000000000", "quantity": 1}, Invalid: true}).ExpectError(t, 400, "VALIDATION_ERROR")
		}
		unchanged(t, app.DB, before)
	})
}

func urlEncode(s string) string {
	r := strings.NewReplacer("%", "%25", " ", "%20", "'", "%27", ";", "%3B", "=", "%3D", `\`, "%5C", "_", "%5F", "-", "-")
	return r.Replace(s)
}

// API4: a cart cannot grow without bound (every read re-prices every line).
func TestCartLineCap(t *testing.T) {
	app := mustApp(t)
	variants := make([]testkit.StoreVariant, 101)
	for i := range variants {
		variants[i] = testkit.StoreVariant{Inventory: 5}
	}
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: variants})
	hdr := map[string]string{"X-Session-Id": "cart-line-cap-0001"}
	for i := 0; i < 100; i++ {
		app.Do(t, "POST", "/cart/items", testkit.Req{Headers: hdr, Body: map[string]any{"variantId": p.Variants[i].ID, "quantity": 1}}).Expect(t, 201)
	}
	before := snapshot(t, app.DB, "carts", "cart_items", "variants")
	app.Do(t, "POST", "/cart/items", testkit.Req{Headers: hdr, Body: map[string]any{"variantId": p.Variants[100].ID, "quantity": 1}}).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	unchanged(t, app.DB, before)
	// Adding to an existing line still works.
	app.Do(t, "POST", "/cart/items", testkit.Req{Headers: hdr, Body: map[string]any{"variantId": p.Variants[0].ID, "quantity": 1}}).Expect(t, 201)
	var lines int64
	app.DB.Model(&models.CartItem{}).Count(&lines)
	if lines != 100 {
		t.Fatalf("cart has %d lines", lines)
	}
}

// postHuge sends a JSON body of size bytes over a raw connection, framed by
// Content-Length or chunked, while reading the answer: the server may answer
// (and close) before the body is all sent, as a real client would see.
func postHuge(t *testing.T, baseURL, path, framing string, size int) (int, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(baseURL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	head := "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
	if framing == "chunked" {
		head += "Transfer-Encoding: chunked\r\n\r\n"
	} else {
		head += fmt.Sprintf("Content-Length: %d\r\n\r\n", size)
	}
	go func() {
		w := bufio.NewWriter(conn)
		w.WriteString(head)
		chunk := `{"email":"` + strings.Repeat("a", 64<<10-10) + `"}`
		for sent := 0; sent < size; sent += len(chunk) {
			if framing == "chunked" {
				fmt.Fprintf(w, "%x\r\n%s\r\n", len(chunk), chunk)
			} else {
				w.WriteString(chunk)
			}
			if w.Flush() != nil {
				return // the server stopped reading: expected
			}
		}
		if framing == "chunked" {
			w.WriteString("0\r\n\r\n")
			w.Flush()
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Query text Postgres cannot hold (not UTF-8, a NUL) and dates in a year it
// does not have (0) are refused as 400 naming the parameter, on every kind
// of reader: searches, slugs, states, audit filters, day and instant dates.
func TestQueryValuesPostgresCannotHold(t *testing.T) {
	app := mustApp(t)
	_, tok := testkit.MustAdmin(t, app, "super_admin")
	tests := []struct{ path, field string }{
		{"/api/v1/admin/customers?search=%80", "search"},
		{"/api/v1/admin/orders?orderNumber=%C3%28", "orderNumber"},
		{"/api/v1/admin/orders?dateFrom=0000-01-01", "dateFrom"},
		{"/api/v1/admin/audit-logs?action=%00", "action"},
		{"/api/v1/admin/audit-logs?entityId=%FF", "entityId"},
		{"/api/v1/admin/audit-logs?dateTo=0000-12-31T00:00:00Z", "dateTo"},
		{"/api/v1/admin/analytics/orders?dateFrom=0000-01-01&dateTo=0000-01-02", "dateFrom"},
		{"/products?category=%80", "category"},
		{"/products?search=a%00b", "search"},
		{"/cart/shipping-options?state=%80", "state"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			req := testkit.Req{Invalid: true, Headers: map[string]string{"X-Session-Id": "query-values-0001"}}
			if strings.HasPrefix(tt.path, "/api/v1/admin/") {
				req.Token = tok
			}
			app.Do(t, "GET", tt.path, req).ExpectField(t, tt.field)
		})
	}
}
