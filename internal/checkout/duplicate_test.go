package checkout_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/gateway/razorpaytest"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// withGateway is e with its service refunding through a Razorpay API at
// url, with a 300 ms timeout.
func (e *env) withGateway(url string) *checkout.Service {
	provider := gateway.NewRazorpay(gateway.RazorpayConfig{BaseURL: url, KeyID: "rzp_test", KeySecret: "secret",
		Client: &http.Client{Timeout: 300 * time.Millisecond}})
	return checkout.New(e.d.DB, e.d.Queue, provider, checkout.Settings{Provider: "simulator", StoreState: "Karnataka"}, nil, e.d.Log)
}

// The refund of a duplicate payment times out at the gateway (which made
// it): the capture fails so that the task is retried, the session stays
// REFUNDING, and both the retry and reconcile ask again with the same key;
// the gateway refunds once.
func TestDuplicateRefundWithUnknownOutcomeIsAskedAgainWithTheSameKey(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	gw := razorpaytest.New(t, func(n int) (bool, bool) { return n == 0, true }, time.Second)
	svc := e.withGateway(gw.URL)
	old := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{})
	current := fixtures.MustReplace(t, e.d.DB, old)

	if res, err := svc.Capture(ctx, captured(current)); err != nil || res.Outcome != checkout.Created {
		t.Fatalf("capture of the current session: %+v %v", res, err)
	}
	p := captured(old)
	if _, err := svc.Capture(ctx, p); err == nil {
		t.Fatal("a refund without an answer reported success: the task would not be retried")
	}
	if s := e.session(t, old.SessionID); s.State != models.CheckoutRefunding || s.PaymentID == nil || *s.PaymentID != p.ID {
		t.Fatalf("session %s, payment %v", s.State, s.PaymentID)
	}
	// Reconcile finds it once it has waited long enough for its task.
	e.d.DB.Exec(`UPDATE checkout_sessions SET updated_at = now() - interval '11 minutes' WHERE id = ?`, old.SessionID)
	rep, err := svc.RefundDuplicates(ctx)
	if err != nil || rep.Refunded != 1 || rep.Pending != 0 {
		t.Fatalf("reconcile: %+v %v", rep, err)
	}
	// The task's retry finds the session refunded and asks nothing more.
	if res, err := svc.Capture(ctx, p); err != nil || res.Outcome != checkout.Duplicate {
		t.Fatalf("retried capture: %+v %v", res, err)
	}
	refunds, keys := gw.Refunds(), gw.IdempotencyKeys()
	s := e.session(t, old.SessionID)
	if len(refunds) != 1 || refunds[0].Amount != int64(old.Total) || len(keys) != 2 || keys[0] != keys[1] ||
		s.State != models.CheckoutRefunded || s.RefundID == nil || *s.RefundID != refunds[0].ID {
		t.Fatalf("gateway refunds %+v, keys %q; session %s refund %v", refunds, keys, s.State, s.RefundID)
	}
	if n := e.count(t, &models.Order{}, "1 = 1"); n != 1 {
		t.Fatalf("%d orders", n)
	}
	if _, err := e.d.Inspector.GetTaskInfo("default", "email:duplicate_payment:"+old.SessionID.String()); err != nil {
		t.Fatalf("refund email task: %v", err)
	}
}

// The gateway refusing the refund leaves the duplicate payment to a person:
// NEEDS_REVIEW with the reason, and the task succeeds.
func TestDuplicateRefundRefusedNeedsReview(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error":{"code":"BAD_REQUEST_ERROR","description":"The payment has been fully refunded already"}}`))
	}))
	defer gw.Close()
	svc := e.withGateway(gw.URL)
	old := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{})
	current := fixtures.MustReplace(t, e.d.DB, old)
	if _, err := svc.Capture(ctx, captured(old)); err != nil {
		t.Fatal(err)
	}
	if res, err := svc.Capture(ctx, captured(current)); err != nil || res.Outcome != checkout.Duplicate {
		t.Fatalf("capture of the replacing session: %+v %v", res, err)
	}
	s := e.session(t, current.SessionID)
	if s.State != models.CheckoutNeedsReview || s.ReviewReason == nil || !strings.Contains(*s.ReviewReason, "refused its refund") {
		t.Fatalf("session %s: %v", s.State, s.ReviewReason)
	}
	if v := e.variant(t, current.VariantID); v.Reserved != 0 || v.Committed != current.Quantity {
		t.Fatalf("stock %+v", v)
	}
}

// Both sessions of one purchase captured at once: one order, one refund,
// whichever commits first.
func TestConcurrentCapturesOfOnePurchaseMakeOneOrder(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	for round := range 5 {
		old := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{})
		current := fixtures.MustReplace(t, e.d.DB, old)
		pays := []gateway.Payment{captured(old), captured(current)}
		results := make([]checkout.CaptureResult, 2)
		testkit.Together(t, len(pays), func(i int) {
			var err error
			if results[i], err = e.svc.Capture(ctx, pays[i]); err != nil {
				t.Errorf("capture %d: %v", i, err)
			}
		})
		won := 0
		if results[1].Outcome == checkout.Created {
			won = 1
		}
		lost := 1 - won
		if results[won].Outcome != checkout.Created || results[lost].Outcome != checkout.Duplicate {
			t.Fatalf("round %d: outcomes %s and %s", round, results[0].Outcome, results[1].Outcome)
		}
		ids := []fixtures.Checkout{old, current}
		if s := e.session(t, ids[lost].SessionID); s.State != models.CheckoutRefunded {
			t.Fatalf("round %d: losing session %s", round, s.State)
		}
		refunds, _ := gateway.NewSimulator().Refunds(ctx, pays[lost].ID)
		if len(refunds) != 1 || refunds[0].Amount != old.Total {
			t.Fatalf("round %d: simulator refunds of the losing payment %+v", round, refunds)
		}
		if v := e.variant(t, old.VariantID); v.Committed != old.Quantity || v.Reserved != 0 {
			t.Fatalf("round %d: stock %+v", round, v)
		}
	}
	if n := e.count(t, &models.Order{}, "1 = 1"); n != 5 {
		t.Fatalf("%d orders for 5 purchases", n)
	}
}
