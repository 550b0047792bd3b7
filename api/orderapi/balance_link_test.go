package orderapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/api/gatewayapi"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/gateway/razorpaytest"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
)

// linkEnv is an editEnv whose app calls the Razorpay stub gw for payment
// links, with a worker.
type linkEnv struct {
	editEnv
	gw *razorpaytest.Server
}

func newLinkEnv(t *testing.T) linkEnv {
	t.Helper()
	gw := razorpaytest.New(t, nil, 0)
	app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
		c.PaymentProvider, c.RazorpayBaseURL, c.RazorpayKeyID, c.RazorpayKeySecret = "razorpay", gw.URL, "rzp_test", "secret"
		c.GatewayTimeout = gatewayTimeout
	}))
	return linkEnv{editEnv: newEditEnvOn(t, app), gw: gw}
}

// balanceLinkBody is the answer of POST /admin/orders/{id}/payment-link.
type balanceLinkBody struct {
	PaymentLink struct {
		ID     string       `json:"id"`
		Amount money.Amount `json:"amount"`
		Status string       `json:"status"`
	} `json:"paymentLink"`
	Amount money.Amount `json:"amount"`
}

// setQuantity edits the order's line to qty units and expects 200.
func (e linkEnv) setQuantity(t *testing.T, qty int) {
	t.Helper()
	e.edit(t, map[string]any{"items": []any{map[string]any{"orderItemId": e.line(), "quantity": qty}}}).Expect(t, http.StatusOK)
}

// link asks for the balance's payment link and expects 201.
func (e linkEnv) link(t *testing.T) balanceLinkBody {
	t.Helper()
	var b balanceLinkBody
	e.app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+e.order.ID.String()+"/payment-link", testkit.Req{Token: e.token}).
		Expect(t, http.StatusCreated).JSON(t, &b)
	return b
}

// linkRow reads the order_payment_links row of gateway link id.
func (e linkEnv) linkRow(t *testing.T, id string) models.OrderPaymentLink {
	t.Helper()
	var l models.OrderPaymentLink
	if err := e.app.DB.Take(&l, "link_id = ?", id).Error; err != nil {
		t.Fatal(err)
	}
	return l
}

// payLink delivers a signed payment_link.paid of link id, paid paise by
// payment at paidAt (zero: now), and waits until the worker recorded the
// payment.
func (e linkEnv) payLink(t *testing.T, id, payment string, paise int64, paidAt time.Time) models.Payment {
	t.Helper()
	body := gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentLinkPaid, EventID: gateway.NewEventID(), LinkID: id,
		PaymentID: payment, Amount: paise, Currency: "INR", PaidAt: paidAt})
	e.app.Do(t, http.MethodPost, gatewayapi.Path, testkit.Req{Body: body,
		Headers: map[string]string{gateway.SignatureHeader: gateway.Sign(e.app.Config.GatewayWebhookSecret, body)}}).Expect(t, http.StatusOK)
	var p models.Payment
	testkit.Eventually(t, 10*time.Second, "the link's payment recorded", func() bool {
		return e.app.DB.Where("payment_id = ?", payment).Limit(1).Find(&p).RowsAffected == 1
	})
	return p
}

// gatewayCancelled waits until the stub's link id is cancelled and the
// link's row says the gateway closed it.
func (e linkEnv) gatewayCancelled(t *testing.T, id string) {
	t.Helper()
	testkit.Eventually(t, 10*time.Second, "link "+id+" cancelled at the gateway", func() bool {
		return e.gw.LinkStatus(id) == "cancelled" && e.linkRow(t, id).GatewayClosedAt != nil
	})
}

// openLinks is the order's open balance links.
func (e linkEnv) openLinks(t *testing.T) []models.OrderPaymentLink {
	t.Helper()
	var ls []models.OrderPaymentLink
	e.app.DB.Where("order_id = ? AND status = ?", e.order.ID, models.LinkOpen).Find(&ls)
	return ls
}

// Staff send the balance's link, then record the balance as paid by UPI:
// the link is closed (here, and cancelled at Razorpay), and the link's
// payment arriving all the same (the customer paid before the cancel) is
// recorded for review, not counted: the order stays paid its total once.
func TestBalanceLinkClosedByARecordedPayment(t *testing.T) {
	t.Parallel()
	e := newLinkEnv(t)
	e.setQuantity(t, 3) // total ₹3,000, ₹1,000 owed
	l := e.link(t)
	if l.Amount != 100000 || l.PaymentLink.Status != "open" {
		t.Fatalf("link %+v", l)
	}
	e.app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+e.order.ID.String()+"/payments", testkit.Req{Token: e.token,
		Body: map[string]any{"method": "upi", "amount": 1000, "reference": "UPI-77"}}).Expect(t, http.StatusCreated)
	if row := e.linkRow(t, l.PaymentLink.ID); row.Status != models.LinkCancelled || row.CancelledAt == nil {
		t.Fatalf("link after the UPI payment: %+v", row)
	}
	e.gatewayCancelled(t, l.PaymentLink.ID)

	p := e.payLink(t, l.PaymentLink.ID, "pay_late_"+uuid.NewString()[:8], 100000, time.Time{})
	o := reloadOrder(t, e.app, e.order.ID)
	if p.Status != models.PaymentNeedsReview || o.PaidTotal != 300000 || o.BalanceDue != 0 || o.PaymentStatus != models.PaymentPaid {
		t.Fatalf("after the closed link's payment: payment %s; order paid %s of %s, %s due, %s", p.Status, o.PaidTotal, o.Total,
			o.BalanceDue, o.PaymentStatus)
	}
	var detail struct {
		Payments []struct {
			PaymentID string `json:"paymentId"`
			Status    string `json:"status"`
		} `json:"payments"`
		PaymentLinks []struct {
			Status string `json:"status"`
		} `json:"paymentLinks"`
		History []struct {
			Note string `json:"note"`
		} `json:"history"`
	}
	e.app.Do(t, http.MethodGet, "/api/v1/admin/orders/"+e.order.ID.String(), testkit.Req{Token: e.token}).Expect(t, http.StatusOK).JSON(t, &detail)
	flagged := false
	for _, dp := range detail.Payments {
		flagged = flagged || (dp.PaymentID == p.PaymentID && dp.Status == "needs_review")
	}
	noted := false
	for _, h := range detail.History {
		noted = noted || strings.Contains(h.Note, "not counted")
	}
	if !flagged || !noted || len(detail.PaymentLinks) != 1 || detail.PaymentLinks[0].Status != "cancelled" {
		t.Fatalf("order detail %+v", detail)
	}
	// The gateway delivers the event again: nothing more is recorded.
	body := gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentLinkPaid, EventID: gateway.NewEventID(), LinkID: l.PaymentLink.ID,
		PaymentID: p.PaymentID, Amount: 100000, Currency: "INR"})
	ev, err := gateway.Parse(body)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := e.app.OrderEdits.SettleLink(context.Background(), ev); !ok || err != nil {
		t.Fatalf("second delivery: %v, %v", ok, err)
	}
	if n := countRows(t, e.app, `SELECT count(*) FROM payments WHERE order_id = ?`, e.order.ID); n != 3 {
		t.Fatalf("%d payments, want the checkout's, the UPI and the flagged one", n)
	}
}

// Two edits that raise the total: the first balance's link is closed by
// the second edit, and the link asked for then is the only open one, for
// the whole balance.
func TestBalanceLinkTwoRaisingEditsLeaveOneLink(t *testing.T) {
	t.Parallel()
	e := newLinkEnv(t)
	e.setQuantity(t, 3)
	first := e.link(t)
	e.setQuantity(t, 4) // ₹2,000 owed
	if row := e.linkRow(t, first.PaymentLink.ID); row.Status != models.LinkCancelled {
		t.Fatalf("first link after the second edit: %s", row.Status)
	}
	e.gatewayCancelled(t, first.PaymentLink.ID)
	second := e.link(t)
	open := e.openLinks(t)
	o := reloadOrder(t, e.app, e.order.ID)
	if second.PaymentLink.ID == first.PaymentLink.ID || second.Amount != 200000 || len(open) != 1 || open[0].Amount != o.BalanceDue ||
		*open[0].LinkID != second.PaymentLink.ID {
		t.Fatalf("second link %+v; open links %+v; balance %s", second, open, o.BalanceDue)
	}
	// Paid, the open link settles the balance exactly.
	p := e.payLink(t, second.PaymentLink.ID, "pay_ok_"+uuid.NewString()[:8], 200000, time.Time{})
	o = reloadOrder(t, e.app, e.order.ID)
	if p.Status != models.PaymentCaptured || o.PaidTotal != 400000 || o.BalanceDue != 0 || o.PaymentStatus != models.PaymentPaid {
		t.Fatalf("after the link's payment: %s; paid %s, %s due, %s", p.Status, o.PaidTotal, o.BalanceDue, o.PaymentStatus)
	}
	// The first link paid after all is not counted.
	late := e.payLink(t, first.PaymentLink.ID, "pay_old_"+uuid.NewString()[:8], 100000, time.Time{})
	if o = reloadOrder(t, e.app, e.order.ID); late.Status != models.PaymentNeedsReview || o.PaidTotal != 400000 {
		t.Fatalf("the closed link's payment %s; paid %s", late.Status, o.PaidTotal)
	}
}

// An edit that lowers the total, and a cancel, close the open link.
func TestBalanceLinkClosedByALoweringEditAndByACancel(t *testing.T) {
	t.Parallel()
	e := newLinkEnv(t)
	e.setQuantity(t, 3)
	l := e.link(t)
	e.setQuantity(t, 2) // the balance is cleared
	if row := e.linkRow(t, l.PaymentLink.ID); row.Status != models.LinkCancelled {
		t.Fatalf("link after the lowering edit: %s", row.Status)
	}
	e.gatewayCancelled(t, l.PaymentLink.ID)

	c := newLinkEnv(t)
	c.setQuantity(t, 4)
	cl := c.link(t)
	c.app.Do(t, http.MethodPatch, "/api/v1/admin/orders/"+c.order.ID.String()+"/status", testkit.Req{Token: c.token,
		Body: map[string]any{"status": "cancelled", "note": "customer changed their mind"}}).Expect(t, http.StatusOK)
	if row := c.linkRow(t, cl.PaymentLink.ID); row.Status != models.LinkCancelled {
		t.Fatalf("link after the cancel: %s", row.Status)
	}
	c.gatewayCancelled(t, cl.PaymentLink.ID)
	p := c.payLink(t, cl.PaymentLink.ID, "pay_cx_"+uuid.NewString()[:8], 200000, time.Time{})
	if o := reloadOrder(t, c.app, c.order.ID); p.Status != models.PaymentNeedsReview || o.PaidTotal != 200000 {
		t.Fatalf("payment of a cancelled order's link: %s; paid %s", p.Status, o.PaidTotal)
	}
}

// Razorpay fails the first cancel: the task is retried (the same task,
// run again), and the link is cancelled there once.
func TestBalanceLinkCancelRetriedAfterAGatewayFailure(t *testing.T) {
	t.Parallel()
	e := newLinkEnv(t)
	e.setQuantity(t, 3)
	l := e.link(t)
	e.gw.FailLinkCancels(1)
	e.setQuantity(t, 4)
	testkit.Eventually(t, 10*time.Second, "the first cancel tried", func() bool { return e.gw.CancelAttempts() >= 1 })
	if e.gw.LinkStatus(l.PaymentLink.ID) == "cancelled" {
		t.Fatal("the stub failed the cancel but the link is cancelled")
	}
	row := e.linkRow(t, l.PaymentLink.ID)
	// The retry is due in a few seconds; run it now.
	testkit.Eventually(t, 10*time.Second, "the retry run", func() bool {
		return e.app.Inspector.RunTask(tasks.QueueCritical, "cancel_link:"+row.ID.String()) == nil
	})
	e.gatewayCancelled(t, l.PaymentLink.ID)
	if n := e.gw.CancelAttempts(); n != 2 {
		t.Fatalf("%d cancel requests, want the failed one and its retry", n)
	}
}

// A link paid before it expired whose event arrives after the expiry is
// counted (the payment's own time decides); one paid after it expired is
// not.
func TestBalanceLinkPaidBeforeExpiryWithALateWebhookCounts(t *testing.T) {
	t.Parallel()
	e := newLinkEnv(t)
	e.setQuantity(t, 3)
	l := e.link(t)
	// The link expired a minute ago; the customer paid two minutes ago.
	e.app.DB.Exec(`UPDATE order_payment_links SET expires_at = date_trunc('second', now()) - interval '1 minute' WHERE link_id = ?`, l.PaymentLink.ID)
	expires := e.linkRow(t, l.PaymentLink.ID).ExpiresAt
	p := e.payLink(t, l.PaymentLink.ID, "pay_lag_"+uuid.NewString()[:8], 100000, expires.Add(-time.Minute))
	if o := reloadOrder(t, e.app, e.order.ID); p.Status != models.PaymentCaptured || o.PaidTotal != 300000 || o.PaymentStatus != models.PaymentPaid {
		t.Fatalf("lagging event of a payment in time: %s; paid %s, %s", p.Status, o.PaidTotal, o.PaymentStatus)
	}

	x := newLinkEnv(t)
	x.setQuantity(t, 3)
	xl := x.link(t)
	x.app.DB.Exec(`UPDATE order_payment_links SET expires_at = date_trunc('second', now()) - interval '1 minute' WHERE link_id = ?`, xl.PaymentLink.ID)
	xp := x.payLink(t, xl.PaymentLink.ID, "pay_exp_"+uuid.NewString()[:8], 100000, time.Time{})
	if o := reloadOrder(t, x.app, x.order.ID); xp.Status != models.PaymentNeedsReview || o.PaidTotal != 200000 || o.BalanceDue != 100000 ||
		o.PaymentStatus != models.PaymentPartiallyPaid {
		t.Fatalf("payment after expiry: %s; paid %s, %s due, %s", xp.Status, o.PaidTotal, o.BalanceDue, o.PaymentStatus)
	}
}

// A link closed here whose gateway cancel never ran (no worker took the
// task: the process died, Redis was down) is cancelled at the gateway by
// reconcile once it is ten minutes old.
func TestBalanceLinkCancelledByReconcileWhenItsTaskNeverRan(t *testing.T) {
	t.Parallel()
	gw := razorpaytest.New(t, nil, 0)
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) {
		c.PaymentProvider, c.RazorpayBaseURL, c.RazorpayKeyID, c.RazorpayKeySecret = "razorpay", gw.URL, "rzp_test", "secret"
		c.GatewayTimeout = gatewayTimeout
	}))
	e := linkEnv{editEnv: newEditEnvOn(t, app), gw: gw}
	e.setQuantity(t, 3)
	l := e.link(t)
	e.setQuantity(t, 4)
	if row := e.linkRow(t, l.PaymentLink.ID); row.Status != models.LinkCancelled || row.GatewayClosedAt != nil || gw.CancelAttempts() != 0 {
		t.Fatalf("before reconcile: %+v, %d cancels", row, gw.CancelAttempts())
	}
	// Ten minutes pass.
	app.DB.Exec(`UPDATE order_payment_links SET cancelled_at = cancelled_at - interval '11 minutes' WHERE link_id = ?`, l.PaymentLink.ID)
	rep, err := app.Reconcile.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.PaymentLinks.Closed != 1 || rep.PaymentLinks.Pending != 0 || gw.LinkStatus(l.PaymentLink.ID) != "cancelled" ||
		e.linkRow(t, l.PaymentLink.ID).GatewayClosedAt == nil {
		t.Fatalf("reconcile %+v; stub %s", rep.PaymentLinks, gw.LinkStatus(l.PaymentLink.ID))
	}
	// Run again, it finds nothing more.
	if rep, err = app.Reconcile.Run(context.Background()); err != nil || rep.PaymentLinks.Closed != 0 || gw.CancelAttempts() != 1 {
		t.Fatalf("second reconcile %+v (%v), %d cancels", rep.PaymentLinks, err, gw.CancelAttempts())
	}
}
