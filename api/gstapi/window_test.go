package gstapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/gstportal"
	"github.com/gocommerce/shop/internal/gstportal/gstsim"
	"github.com/gocommerce/shop/internal/testkit"
)

// setLarge sets tax settings aatoAtLeast10Cr.
func (e *env) setLarge(t *testing.T, on bool) {
	t.Helper()
	var s struct {
		AATOAtLeast10Cr *bool `json:"aatoAtLeast10Cr"`
	}
	e.app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: e.token, Body: map[string]any{
		"legalName": "Sahyadri Handlooms Private Limited", "gstin": storeGSTIN, "aatoAtLeast10Cr": on,
		"address": map[string]any{"line1": "14 Commercial Street", "line2": "Shivajinagar", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001"}}}).Expect(t, http.StatusOK).JSON(t, &s)
	if s.AATOAtLeast10Cr == nil || *s.AATOAtLeast10Cr != on {
		t.Fatalf("aatoAtLeast10Cr answered %v", s.AATOAtLeast10Cr)
	}
}

// The 30-day reporting window of a taxpayer with AATO of ₹10 crore or
// more. The IRP refuses a B2B invoice dated 30 days ago (2305) when the
// store has not said its turnover; once it has, the shop does not send
// such a document at all: the report fails with a clear error, a staff
// retry is refused, and reconcile lists both apart from other failures
// (einvoice_window_closed). A document dated 29 days ago and today's are
// reported.
func TestReportingWindowOfLargeTaxpayers(t *testing.T) {
	e := mustEnvWith(t, gstsim.Options{LargeTaxpayers: []string{storeGSTIN}})
	ctx := context.Background()
	daysAgo := func(n int) {
		at := time.Now().AddDate(0, 0, -n)
		e.app.Invoices.WithClock(func() time.Time { return at })
	}
	issue := func(n int) doc {
		daysAgo(n)
		o := e.order(t, "Maharashtra", buyerGSTIN, "6205", 150000)
		e.ship(t, o, nil)
		e.app.Invoices.WithClock(time.Now)
		return e.docs(t, o)[0]
	}

	refused := e.report(t, issue(30))
	if ei := refused.EInvoice; ei.Status != "failed" || ei.Error == nil || !strings.HasPrefix(*ei.Error, gstportal.CodeReportingWindow+": IRN cannot") {
		t.Fatalf("the IRP on a document 30 days old: %+v", ei)
	}

	e.setLarge(t, true)
	old := issue(30)
	old = e.report(t, old)
	if ei := old.EInvoice; ei.Status != "failed" || ei.Error == nil || !strings.HasPrefix(*ei.Error, gstportal.CodeReportingWindow+": not reported") ||
		!strings.Contains(*ei.Error, "30 days") {
		t.Fatalf("a document past the window: %+v", ei)
	}
	var attempts int
	e.app.DB.Raw(`SELECT attempts FROM einvoices WHERE document_id = ?`, old.ID).Scan(&attempts)
	if attempts != 0 {
		t.Fatalf("the shop asked the IRP %d times about a document past the window", attempts)
	}
	e.app.Do(t, "POST", "/api/v1/admin/invoices/"+old.ID+"/e-invoice/retry", testkit.Req{Token: e.token}).
		ExpectError(t, http.StatusConflict, "CONFLICT")

	for _, n := range []int{29, 0} {
		if d := e.report(t, issue(n)); d.EInvoice.Status != "generated" {
			t.Fatalf("a document %d days old: %+v", n, d.EInvoice)
		}
	}

	rep, err := e.app.Reconcile.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	closed := map[string]bool{}
	for _, p := range rep.Problems {
		if p.Kind == "einvoice_window_closed" {
			closed[p.Detail[:strings.Index(p.Detail, " issued")]] = true
		}
	}
	if len(closed) != 2 || !closed["invoice "+refused.Number] || !closed["invoice "+old.Number] {
		t.Fatalf("reconcile: %+v", rep.Problems)
	}
}
