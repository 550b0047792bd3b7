package invoiceapi_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/tasks"
	"github.com/gocommerce/shop/worker"
	"github.com/google/uuid"
)

// The shipment email carries the shipment's tax invoice as a PDF.
func TestShipmentEmailAttachesTheInvoice(t *testing.T) {
	smtp := testkit.StartSMTP(t)
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.SMTPURL = smtp.URL() }))
	token := mustTaxIdentity(t, app)
	cust := fixtures.MustCustomer(t, app.DB, "Nisha")
	o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust,
		Lines: []fixtures.TaxLine{{Title: "Clay pot", HSN: "6912", Qty: 1, Unit: 59900, Rate: 1200}}})
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments", testkit.Req{Token: token,
		Body: map[string]any{"carrier": "India Post", "trackingNumber": "EE" + uuid.NewString()[:8]}}).Expect(t, http.StatusCreated)
	d := docsOf(t, app, token, o)[0]
	task, _ := tasks.NewFulfillmentEmailsTask(time.Now())
	if err := worker.New(app.App).Handler().ProcessTask(context.Background(), task); err != nil {
		t.Fatal(err)
	}
	mails := smtp.To(cust.Email)
	if len(mails) != 1 || len(mails[0].Attachments) != 1 {
		t.Fatalf("mails %+v", mails)
	}
	att := mails[0].Attachments[0]
	if att.Name != strings.ReplaceAll(d.Number, "/", "-")+".pdf" || !strings.HasPrefix(att.ContentType, "application/pdf") ||
		!bytes.HasPrefix(att.Data, []byte("%PDF-")) || !strings.Contains(mails[0].Body, "India Post") {
		t.Fatalf("attachment %s %s, body %q", att.Name, att.ContentType, mails[0].Body)
	}
	mustContain(t, pdfText(t, att.Data), "TAX INVOICE", d.Number, "₹"+inrText(d.Total))
}
