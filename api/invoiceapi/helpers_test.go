package invoiceapi_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// gstinOf is a valid GSTIN of state code code for PAN pan.
func gstinOf(code, pan string) string {
	s := code + pan + "1Z"
	return s + string(gstin.CheckChar(s))
}

// storeGSTIN is the Karnataka GSTIN the tests' store issues under.
var storeGSTIN = gstinOf("29", "AABCS1429B")

func settingsBody(g, state string) map[string]any {
	return map[string]any{"legalName": "Sahyadri Handlooms Private Limited", "tradeName": "Sahyadri",
		"gstin": g, "address": map[string]any{"line1": "14 Commercial Street", "line2": "Shivajinagar",
			"city": "Bengaluru", "state": state, "pincode": "560001"}}
}

// mustTaxIdentity sets the store's tax identity (Karnataka) and returns a
// super admin's token.
func mustTaxIdentity(t *testing.T, app *testkit.App) string {
	t.Helper()
	_, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: token, Body: settingsBody(storeGSTIN, "Karnataka")}).
		Expect(t, http.StatusOK)
	return token
}

// docLine and doc are a tax document as answered.
type docLine struct {
	Description  string       `json:"description"`
	HSN          string       `json:"hsn"`
	Unit         string       `json:"unit"`
	Quantity     int          `json:"quantity"`
	UnitPrice    money.Amount `json:"unitPrice"`
	Discount     money.Amount `json:"discount"`
	TaxableValue money.Amount `json:"taxableValue"`
	GSTRate      money.Rate   `json:"gstRate"`
	CGST         money.Amount `json:"cgst"`
	SGST         money.Amount `json:"sgst"`
	IGST         money.Amount `json:"igst"`
	CessRate     money.Rate   `json:"cessRate"`
	Cess         money.Amount `json:"cess"`
	Total        money.Amount `json:"total"`
}

type doc struct {
	ID            string  `json:"id"`
	Type          string  `json:"type"`
	Number        string  `json:"number"`
	IssuedAt      string  `json:"issuedAt"`
	OrderID       string  `json:"orderId"`
	FulfillmentID *string `json:"fulfillmentId"`
	RefundID      *string `json:"refundId"`
	References    []struct {
		ID       string `json:"id"`
		Number   string `json:"number"`
		IssuedAt string `json:"issuedAt"`
	} `json:"references"`
	Supplier struct {
		LegalName string `json:"legalName"`
		GSTIN     string `json:"gstin"`
	} `json:"supplier"`
	Recipient struct {
		Name  string  `json:"name"`
		GSTIN *string `json:"gstin"`
	} `json:"recipient"`
	PlaceOfSupply struct{ State, Code string } `json:"placeOfSupply"`
	SupplyType    string                       `json:"supplyType"`
	Lines         []docLine                    `json:"lines"`
	TaxableValue  money.Amount                 `json:"taxableValue"`
	CGSTTotal     money.Amount                 `json:"cgstTotal"`
	SGSTTotal     money.Amount                 `json:"sgstTotal"`
	IGSTTotal     money.Amount                 `json:"igstTotal"`
	CessTotal     money.Amount                 `json:"cessTotal"`
	SGSTLabel     string                       `json:"sgstLabel"`
	Total         money.Amount                 `json:"total"`
	AmountInWords string                       `json:"amountInWords"`
}

// docsOf returns order o's documents, oldest first.
func docsOf(t *testing.T, app *testkit.App, token string, o models.Order) []doc {
	t.Helper()
	var page struct {
		Data       []doc `json:"data"`
		Pagination struct {
			Total int `json:"total"`
		} `json:"pagination"`
	}
	app.Do(t, "GET", "/api/v1/admin/invoices?limit=100&orderId="+o.ID.String(), testkit.Req{Token: token}).
		Expect(t, http.StatusOK).JSON(t, &page)
	out := make([]doc, len(page.Data))
	for i, d := range page.Data {
		out[len(out)-1-i] = d
	}
	return out
}

// ship posts a fulfilment of lines (nil: every unfulfilled unit) and
// returns its id.
func ship(t *testing.T, app *testkit.App, token string, o models.Order, lines map[uuid.UUID]int) string {
	t.Helper()
	body := map[string]any{"carrier": "Delhivery", "trackingNumber": "DL" + uuid.NewString()[:8], "notifyCustomer": false}
	if lines != nil {
		var items []map[string]any
		for id, q := range lines {
			items = append(items, map[string]any{"orderItemId": id, "quantity": q})
		}
		body["items"] = items
	}
	var f struct{ ID string }
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments", testkit.Req{Token: token, Body: body}).
		Expect(t, http.StatusCreated).JSON(t, &f)
	return f.ID
}

// sumDocs adds up documents' totals and taxes.
func sumDocs(docs []doc, typ string) (total, tax money.Amount) {
	for _, d := range docs {
		if d.Type == typ {
			total += d.Total
			tax += d.CGSTTotal + d.SGSTTotal + d.IGSTTotal
		}
	}
	return total, tax
}

// checkDoc fails t unless each line and the document add up: line total =
// taxable + taxes + cess, the document's totals the sum of its lines, and
// CGST equals SGST on every intra-state line.
func checkDoc(t *testing.T, d doc) {
	t.Helper()
	var sum docLine
	for _, l := range d.Lines {
		if l.Total != l.TaxableValue+l.CGST+l.SGST+l.IGST+l.Cess {
			t.Fatalf("%s line %+v does not add up", d.Number, l)
		}
		if d.SupplyType == "intra" && l.IGST != 0 || d.SupplyType == "inter" && l.CGST+l.SGST != 0 {
			t.Fatalf("%s (%s) line %+v has the wrong taxes", d.Number, d.SupplyType, l)
		}
		if l.CGST != l.SGST {
			t.Fatalf("%s line %+v: CGST and SGST differ", d.Number, l)
		}
		sum.Total += l.Total
		sum.TaxableValue += l.TaxableValue
		sum.CGST += l.CGST
		sum.SGST += l.SGST
		sum.IGST += l.IGST
		sum.Cess += l.Cess
	}
	if sum.Total != d.Total || sum.TaxableValue != d.TaxableValue || sum.CGST != d.CGSTTotal || sum.SGST != d.SGSTTotal ||
		sum.IGST != d.IGSTTotal || sum.Cess != d.CessTotal {
		t.Fatalf("%s totals %+v, lines add to %+v", d.Number, d, sum)
	}
}

func fmtNumber(prefix, fy string, n int) string { return fmt.Sprintf("%s/%s/%06d", prefix, fy, n) }

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// netDocumented is what order o's documents leave charged: its invoices
// less its credit notes of either kind.
func netDocumented(docs []doc) money.Amount {
	var net money.Amount
	for _, d := range docs {
		if d.Type == "invoice" {
			net += d.Total
		} else {
			net -= d.Total
		}
	}
	return net
}

// mustDocumentKept fails t unless order o's documents charge exactly what
// the customer pays for what was delivered or kept: what was paid and is
// still owed, less what was refunded. Call it once nothing of o is left to
// ship (or every unit left is cancelled).
func mustDocumentKept(t *testing.T, app *testkit.App, token string, o models.Order) {
	t.Helper()
	var row struct {
		PaidTotal     money.Amount `json:"paidTotal"`
		RefundedTotal money.Amount `json:"refundedTotal"`
		BalanceDue    money.Amount `json:"balanceDue"`
	}
	app.Do(t, "GET", "/api/v1/admin/orders/"+o.ID.String(), testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &row)
	mustDocumentNet(t, app, token, o, row.PaidTotal+row.BalanceDue-row.RefundedTotal)
}

// mustDocumentNet fails t unless order o's invoices less its credit notes
// come to want, every document adding up on its own.
func mustDocumentNet(t *testing.T, app *testkit.App, token string, o models.Order, want money.Amount) {
	t.Helper()
	docs := docsOf(t, app, token, o)
	for _, d := range docs {
		checkDoc(t, d)
	}
	if got := netDocumented(docs); got != want {
		var lines []string
		for _, d := range docs {
			lines = append(lines, fmt.Sprintf("%s %s %s", d.Type, d.Number, d.Total))
		}
		t.Fatalf("the documents charge %s, the customer pays %s for what was kept: %v", got, want, lines)
	}
}
