package orderapi_test

import (
	"encoding/base64"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// TestListCursorWalkVisitsEveryOrderOnce walks the list by nextCursor while
// new orders arrive between pages (which shift every offset page): each
// order that was there when the walk began is visited once, in list order,
// and none of the new ones, while total follows the new orders.
func TestListCursorWalkVisitsEveryOrderOnce(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Viewer))
	p := fixtures.MustProduct(t, app.DB, "Cup", 10000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 1000)
	cust := fixtures.MustCustomer(t, app.DB, "A")
	base := time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)
	for i := 0; i < 23; i++ {
		at := base.Add(time.Duration(i) * time.Minute)
		if i >= 10 && i < 16 {
			at = base.Add(10 * time.Minute) // six orders in the same microsecond: the id breaks the tie
		}
		status := models.OrderConfirmed
		if i%3 == 0 {
			status = models.OrderShipped
		}
		fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Status: status, CreatedAt: at,
			Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
	}
	listOrder := func(where string) []string {
		var ids []string
		app.DB.Raw("SELECT id::text FROM orders WHERE " + where + " ORDER BY created_at DESC, id DESC").Scan(&ids)
		return ids
	}

	for _, tt := range []struct{ name, filter, where string }{
		{"all", "", "TRUE"},
		{"status", "&status=shipped", "status = 'shipped'"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want := listOrder(tt.where)
			var got []string
			query := "?limit=4" + tt.filter
			for page := 1; ; page++ {
				if page > 10 {
					t.Fatalf("still walking after %d pages: %v", page, got)
				}
				lb := listOrders(t, app, token, query)
				var total int64
				app.DB.Raw("SELECT count(*) FROM orders WHERE " + tt.where).Scan(&total)
				if lb.Pagination.Page != page || lb.Pagination.Limit != 4 || int64(lb.Pagination.Total) != total {
					t.Fatalf("page %d: pagination %+v, want page %d and total %d", page, lb.Pagination, page, total)
				}
				for _, r := range lb.Data {
					got = append(got, r.ID)
				}
				if lb.Pagination.NextCursor == nil {
					break
				}
				// A new order between pages: it sorts before the walk.
				fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Status: models.OrderShipped,
					Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
				query = "?limit=4" + tt.filter + "&cursor=" + url.QueryEscape(*lb.Pagination.NextCursor)
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("walk visited\n%v\nwant\n%v", got, want)
			}
		})
	}

	// A full last page has no next cursor either.
	lb := listOrders(t, app, token, "?limit=100")
	if lb.Pagination.NextCursor != nil {
		t.Fatalf("nextCursor %q on the only page", *lb.Pagination.NextCursor)
	}
}

func TestListMalformedCursor(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Viewer))
	p := fixtures.MustProduct(t, app.DB, "Cup", 10000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 1000)
	cust := fixtures.MustCustomer(t, app.DB, "A")
	for i := 0; i < 3; i++ {
		fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
	}
	next := listOrders(t, app, token, "?limit=1").Pagination.NextCursor
	if next == nil {
		t.Fatal("no nextCursor on a full first page of three")
	}
	id := uuid.NewString()
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for _, tt := range []struct{ name, query string }{
		{"not base64", "cursor=%21%21%21"},
		{"padded", "cursor=" + url.QueryEscape(base64.URLEncoding.EncodeToString([]byte("1:1775034000000000:"+id+":12")))},
		{"not a cursor", "cursor=" + enc("hello")},
		{"other version", "cursor=" + enc("2:1775034000000000:"+id+":2")},
		{"time not a number", "cursor=" + enc("1:soon:"+id+":2")},
		{"time out of range", "cursor=" + enc("1:9223372036854775807:"+id+":2")},
		{"id not a uuid", "cursor=" + enc("1:1775034000000000:order-1:2")},
		{"id without dashes", "cursor=" + enc("1:1775034000000000:"+strings.ReplaceAll(id, "-", "")+":2")},
		{"page zero", "cursor=" + enc("1:1775034000000000:"+id+":0")},
		{"page too big", "cursor=" + enc("1:1775034000000000:"+id+":99999999999")},
		{"extra part", "cursor=" + enc("1:1775034000000000:"+id+":2:3")},
		{"too long", "cursor=" + strings.Repeat("A", 300)},
		{"with page", "page=2&cursor=" + url.QueryEscape(*next)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// A cursor above 200 characters breaks docs/openapi.yaml on purpose.
			invalid := tt.name == "too long"
			app.Do(t, "GET", "/api/v1/admin/orders?limit=1&"+tt.query, testkit.Req{Token: token, Invalid: invalid}).ExpectField(t, "cursor")
		})
	}
	lb := listOrders(t, app, token, "?limit=1&cursor="+url.QueryEscape(*next))
	if lb.Pagination.Page != 2 || len(lb.Data) != 1 || lb.Pagination.Total != 3 || lb.Pagination.TotalPages != 3 {
		t.Fatalf("the cursor's page: %+v", lb.Pagination)
	}
}
