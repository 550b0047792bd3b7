package invoiceapi_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// An invoice staged at 23:59:59.9 IST on 31 March whose commit waits for
// the series (another transaction holds its row) until after midnight is
// numbered and dated at its commit: 1 April, the first of the new
// financial year's series, its event carrying the same number and date;
// the old series hands back the serial it took first, so March's and
// April's GSTR-1 document summaries do not overlap.
func TestNumberAndDateAreTakenAtCommit(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	ist := time.FixedZone("IST", 19800)
	clock := time.Date(2027, 3, 31, 12, 0, 0, 0, ist)
	var mu sync.Mutex
	app.Invoices.WithClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return clock })
	cust := fixtures.MustCustomer(t, app.DB, "Buyer")
	order := func() models.Order {
		return fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust,
			Lines: []fixtures.TaxLine{{Title: "Lamp", HSN: "9405", Qty: 1, Unit: 99900, Rate: 1800}}})
	}
	ship(t, app, token, order(), nil)

	// Hold the year's series row, stage at 23:59:59.9 and let the commit
	// wait past midnight.
	blocker := app.DB.Begin()
	if err := blocker.Exec(`SELECT 1 FROM document_series WHERE financial_year = '26-27' FOR UPDATE`).Error; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	clock = time.Date(2027, 3, 31, 23, 59, 59, 900_000_000, ist)
	mu.Unlock()
	late := order()
	done := make(chan struct{})
	go func() {
		defer close(done)
		ship(t, app, token, late, nil)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var waiting int
		app.DB.Raw(`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`).
			Scan(&waiting)
		if waiting > 0 {
			break
		}
		if time.Now().After(deadline) {
			blocker.Rollback()
			t.Fatal("the fulfilment's commit never waited for the series row")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // the staged moment plus this is past midnight
	blocker.Rollback()
	<-done

	docs := docsOf(t, app, token, late)
	if len(docs) != 1 {
		t.Fatalf("%d documents", len(docs))
	}
	d := docs[0]
	at := mustTime(t, d.IssuedAt).In(ist)
	if d.Number != "INV/27-28/000001" || at.Format("2006-01-02") != "2027-04-01" || at.Hour() != 0 {
		t.Fatalf("staged at 23:59:59.9 on 31 March, committed after midnight: %s dated %s", d.Number, at)
	}
	var event struct {
		Number   string    `json:"number"`
		IssuedAt time.Time `json:"issuedAt"`
	}
	var data string
	app.DB.Raw(`SELECT e.data::text FROM events e JOIN tax_documents td ON td.event_id = e.id WHERE td.id = ?`, d.ID).Scan(&data)
	if err := json.Unmarshal([]byte(data), &event); err != nil {
		t.Fatalf("event data %s: %v", data, err)
	}
	if event.Number != d.Number || !event.IssuedAt.Equal(mustTime(t, d.IssuedAt)) {
		t.Fatalf("invoice.issued says %s at %s; the document %s at %s", event.Number, event.IssuedAt, d.Number, d.IssuedAt)
	}
	var lastOld int
	app.DB.Raw(`SELECT last_serial FROM document_series WHERE financial_year = '26-27' AND doc_type = 'invoice'`).Scan(&lastOld)
	if lastOld != 1 {
		t.Fatalf("the old year's series stands at %d: the serial it took first was not handed back", lastOld)
	}
	// The next one on 1 April follows it.
	mu.Lock()
	clock = time.Date(2027, 4, 1, 9, 0, 0, 0, ist)
	mu.Unlock()
	ship(t, app, token, order(), nil)
	if got := issuedNumbers(t, app); len(got) != 3 || got[2] != "INV/27-28/000002" {
		t.Fatalf("numbers %v", got)
	}

	for _, c := range []struct{ period, has, hasNot string }{
		{"2027-03", "INV/26-27/000001", "INV/27-28/"},
		{"2027-04", "INV/27-28/000001", "INV/26-27/"},
	} {
		r := app.Do(t, "GET", "/api/v1/admin/reports/gstr1?period="+c.period, testkit.Req{Token: token}).Expect(t, http.StatusOK)
		if body := string(r.Body); !strings.Contains(body, c.has) || strings.Contains(body, c.hasNot) {
			t.Fatalf("GSTR-1 of %s: %s", c.period, body)
		}
	}
}

// Concurrent fulfilments are numbered and dated at their commits: ordered
// by serial, their dates never go back.
func TestConcurrentIssuesNumberInDateOrder(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	const n = 24
	orders := make([]models.Order, n)
	for i := range orders {
		cust := fixtures.MustCustomer(t, app.DB, "Buyer")
		orders[i] = fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust,
			Lines: []fixtures.TaxLine{{Title: "Lamp", HSN: "9405", Qty: 1, Unit: 99900, Rate: 1800}}})
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range orders {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			r := app.Do(t, "POST", "/api/v1/admin/orders/"+orders[i].ID.String()+"/fulfillments", testkit.Req{Token: token,
				Body: map[string]any{"carrier": "Delhivery", "trackingNumber": "DL" + strconv.Itoa(i), "notifyCustomer": false}})
			if r.Status != http.StatusCreated {
				t.Errorf("fulfilment %d: %d %s", i, r.Status, r.Body)
			}
		}(i)
	}
	close(start)
	wg.Wait()
	var rows []struct {
		Serial   int
		Number   string
		IssuedAt time.Time
	}
	app.DB.Raw(`SELECT serial, number, issued_at FROM tax_documents WHERE doc_type = 'invoice' ORDER BY serial`).Scan(&rows)
	if len(rows) != n {
		t.Fatalf("%d invoices for %d fulfilments", len(rows), n)
	}
	for i := 1; i < len(rows); i++ {
		if rows[i].IssuedAt.Before(rows[i-1].IssuedAt) {
			t.Fatalf("%s is dated %s, before %s of %s", rows[i].Number, rows[i].IssuedAt.Format(time.RFC3339Nano),
				rows[i-1].Number, rows[i-1].IssuedAt.Format(time.RFC3339Nano))
		}
	}
}
