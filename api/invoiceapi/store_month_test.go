package invoiceapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
)

// An invoice issued at 2026-05-31T20:00Z is dated 1 June in India: the
// store's zone (STORE_TIMEZONE) puts it in June's GSTR-1 and on 1 June in
// the document list; with the store on UTC it is May's, on 31 May.
func TestDocumentMonthIsTheStoreMonth(t *testing.T) {
	tests := []struct {
		name, zone, month, day, otherMonth, otherDay string
	}{
		{"default India", "", "2026-06", "2026-06-01", "2026-05", "2026-05-31"},
		{"UTC", "UTC", "2026-05", "2026-05-31", "2026-06", "2026-06-01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) {
				if tt.zone != "" {
					c.StoreTimezone = tt.zone
				}
			}))
			token := mustTaxIdentity(t, app)
			app.Invoices.WithClock(func() time.Time { return time.Date(2026, 5, 31, 20, 0, 0, 0, time.UTC) })
			o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Late"),
				ShipState: "Karnataka", Lines: []fixtures.TaxLine{{Title: "Tea", HSN: "0902", Qty: 1, Unit: 105000, Rate: 500}}})
			ship(t, app, token, o, nil)

			b2cs := func(month string) int {
				var r struct {
					B2CS []any `json:"b2cs"`
				}
				app.Do(t, "GET", "/api/v1/admin/reports/gstr1?period="+month, testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &r)
				return len(r.B2CS)
			}
			if b2cs(tt.month) != 1 || b2cs(tt.otherMonth) != 0 {
				t.Errorf("GSTR-1: the invoice is not in %s alone", tt.month)
			}
			listed := func(day string) int {
				var r struct {
					Data []any `json:"data"`
				}
				app.Do(t, "GET", "/api/v1/admin/invoices?from="+day+"&to="+day, testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &r)
				return len(r.Data)
			}
			if listed(tt.day) != 1 || listed(tt.otherDay) != 0 {
				t.Errorf("documents: the invoice is not listed on %s alone", tt.day)
			}
		})
	}
}
