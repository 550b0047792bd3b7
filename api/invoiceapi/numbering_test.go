package invoiceapi_test

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// 50 fulfilments of 50 orders sent at once get 50 distinct, consecutive
// invoice numbers; a fulfilment refused after its number was taken (its
// stock counters are out of step) leaves no gap; numbers fit 16
// characters.
func TestConcurrentFulfillmentsNumberWithoutGaps(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	const n = 50
	orders := make([]models.Order, n)
	for i := range orders {
		cust := fixtures.MustCustomer(t, app.DB, "Buyer")
		orders[i] = fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust,
			Lines: []fixtures.TaxLine{{Title: "Lamp", HSN: "9405", Qty: 1, Unit: 99900, Rate: 1800}}})
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	spans := make([][2]time.Time, n)
	for i := range orders {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			spans[i][0] = time.Now()
			r := app.Do(t, "POST", "/api/v1/admin/orders/"+orders[i].ID.String()+"/fulfillments", testkit.Req{Token: token,
				Body: map[string]any{"carrier": "Delhivery", "trackingNumber": "DL" + strconv.Itoa(i), "notifyCustomer": false}})
			spans[i][1] = time.Now()
			if r.Status != http.StatusCreated {
				t.Errorf("fulfilment %d: %d %s", i, r.Status, r.Body)
			}
		}(i)
	}
	close(start)
	wg.Wait()
	if peak := peakOverlap(spans); peak < 5 {
		t.Fatalf("at most %d fulfilments were in flight at once: the test did not race them", peak)
	}
	numbers := issuedNumbers(t, app)
	if len(numbers) != n {
		t.Fatalf("%d invoices for %d fulfilments", len(numbers), n)
	}
	checkConsecutive(t, numbers, 1)

	// Refused after its number was taken: the number is not lost.
	cust := fixtures.MustCustomer(t, app.DB, "Buyer")
	bad := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust,
		Lines: []fixtures.TaxLine{{Title: "Lamp", HSN: "9405", Qty: 2, Unit: 99900, Rate: 1800}}})
	if err := app.DB.Exec(`UPDATE variants SET committed = 0 WHERE id = ?`, *bad.Items[0].VariantID).Error; err != nil {
		t.Fatal(err)
	}
	app.Do(t, "POST", "/api/v1/admin/orders/"+bad.ID.String()+"/fulfillments", testkit.Req{Token: token,
		Body: map[string]any{"carrier": "Delhivery", "trackingNumber": "DL-BAD", "notifyCustomer": false}}).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	good := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust,
		Lines: []fixtures.TaxLine{{Title: "Lamp", HSN: "9405", Qty: 1, Unit: 99900, Rate: 1800}}})
	ship(t, app, token, good, nil)
	numbers = issuedNumbers(t, app)
	checkConsecutive(t, numbers, 1)
	if len(numbers) != n+1 {
		t.Fatalf("%d invoices, want %d", len(numbers), n+1)
	}
}

// A new series starts on 1 April, India Standard Time: an invoice at
// 23:59 IST on 31 March is the old year's next, one a minute later the new
// year's first.
func TestNewSeriesOnFirstAprilIST(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	ist := time.FixedZone("IST", 19800)
	clock := time.Date(2027, 3, 31, 23, 59, 0, 0, ist)
	app.Invoices.WithClock(func() time.Time { return clock })
	cust := fixtures.MustCustomer(t, app.DB, "Buyer")
	order := func() models.Order {
		return fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust,
			Lines: []fixtures.TaxLine{{Title: "Lamp", HSN: "9405", Qty: 2, Unit: 99900, Rate: 1800}}})
	}
	o1, o2 := order(), order()
	ship(t, app, token, o1, map[uuid.UUID]int{o1.Items[0].ID: 1})
	ship(t, app, token, o2, nil)
	clock = time.Date(2027, 4, 1, 0, 0, 30, 0, ist) // 18:30:30 UTC on 31 March
	ship(t, app, token, o1, nil)
	got := issuedNumbers(t, app)
	want := []string{"INV/26-27/000001", "INV/26-27/000002", "INV/27-28/000001"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("numbers %v, want %v", got, want)
	}
	if fy := invoice.FinancialYear(clock.UTC()); fy != "27-28" {
		t.Fatalf("financial year of %s: %s", clock.UTC(), fy)
	}
}

// issuedNumbers lists the invoice numbers issued, in the order issued.
func issuedNumbers(t *testing.T, app *testkit.App) []string {
	t.Helper()
	var out []string
	app.DB.Raw(`SELECT number FROM tax_documents WHERE doc_type = 'invoice' ORDER BY financial_year, serial`).Scan(&out)
	for _, s := range out {
		if len(s) > 16 {
			t.Fatalf("number %s is longer than 16 characters", s)
		}
	}
	return out
}

// checkConsecutive fails t unless numbers' serials are from, from+1, ...
func checkConsecutive(t *testing.T, numbers []string, from int) {
	t.Helper()
	serials := make([]int, len(numbers))
	for i, s := range numbers {
		v, err := strconv.Atoi(s[strings.LastIndex(s, "/")+1:])
		if err != nil {
			t.Fatalf("number %s", s)
		}
		serials[i] = v
	}
	sort.Ints(serials)
	for i, v := range serials {
		if v != from+i {
			t.Fatalf("serials %v are not consecutive from %d", serials, from)
		}
	}
}

// peakOverlap is the most spans in progress at one instant.
func peakOverlap(spans [][2]time.Time) int {
	peak := 0
	for _, s := range spans {
		k := 0
		for _, o := range spans {
			if !o[0].After(s[0]) && o[1].After(s[0]) {
				k++
			}
		}
		peak = max(peak, k)
	}
	return peak
}

// A series whose next number would pass 16 characters refuses the
// fulfilment (409) and changes nothing: a number is never cut short.
func TestFullSeriesIsRefused(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	body := settingsBody(storeGSTIN, "Karnataka")
	body["invoicePrefix"] = "SAHYA"
	app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: token, Body: body}).Expect(t, http.StatusOK)
	cust := fixtures.MustCustomer(t, app.DB, "Buyer")
	o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust,
		Lines: []fixtures.TaxLine{{Title: "Lamp", HSN: "9405", Qty: 2, Unit: 99900, Rate: 1800}}})
	ship(t, app, token, o, map[uuid.UUID]int{o.Items[0].ID: 1})
	if got := issuedNumbers(t, app); len(got) != 1 || len(got[0]) != 16 || !strings.HasSuffix(got[0], "/0001") {
		t.Fatalf("numbers %v", got)
	}
	app.DB.Exec(`UPDATE document_series SET last_serial = 9999`)
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments", testkit.Req{Token: token,
		Body: map[string]any{"carrier": "Delhivery", "trackingNumber": "DL-FULL", "notifyCustomer": false}}).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	var fulfillments int64
	app.DB.Table("fulfillments").Where("order_id = ?", o.ID).Count(&fulfillments)
	if fulfillments != 1 {
		t.Fatalf("%d fulfilments after the refused one", fulfillments)
	}
}
