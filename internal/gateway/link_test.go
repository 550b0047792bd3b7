package gateway_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/gateway/razorpaytest"
)

// Asking Razorpay twice for the link of one reference (a retry after a
// lost answer) returns the first link, not a second one; the simulator
// does the same.
func TestCreateLinkOncePerReference(t *testing.T) {
	gw := razorpaytest.New(t, nil, 0)
	providers := map[string]gateway.LinkProvider{
		"razorpay":  gateway.NewRazorpay(gateway.RazorpayConfig{BaseURL: gw.URL, KeyID: "k", KeySecret: "s", Client: &http.Client{Timeout: 5 * time.Second}}),
		"simulator": gateway.NewSimulator(),
	}
	for name, p := range providers {
		t.Run(name, func(t *testing.T) {
			r := gateway.LinkRequest{Amount: 12345, Currency: "INR", Reference: "ref-" + name + "-1", Name: "A", Email: "a@example.com",
				ExpiresAt: time.Now().Add(time.Hour)}
			first, err := p.CreateLink(context.Background(), r)
			if err != nil {
				t.Fatal(err)
			}
			again, err := p.CreateLink(context.Background(), r)
			if err != nil || again.ID != first.ID || first.ID == "" || first.URL == "" {
				t.Fatalf("first %+v, again %+v (%v)", first, again, err)
			}
			other, err := p.CreateLink(context.Background(), gateway.LinkRequest{Amount: 1, Currency: "INR", Reference: "ref-" + name + "-2",
				ExpiresAt: time.Now().Add(time.Hour)})
			if err != nil || other.ID == first.ID {
				t.Fatalf("another reference: %+v (%v)", other, err)
			}
		})
	}
	if n := len(gw.Links()); n != 2 {
		t.Fatalf("the stub made %d links", n)
	}
}

// Cancelling a link: done once (a repeat is not an error), refused for a
// paid link with ErrLinkPaid, and ErrUnavailable when the gateway fails,
// which a retry then gets through; the simulator answers the same.
func TestCancelLink(t *testing.T) {
	gw := razorpaytest.New(t, nil, 0)
	rzp := gateway.NewRazorpay(gateway.RazorpayConfig{BaseURL: gw.URL, KeyID: "k", KeySecret: "s", Client: &http.Client{Timeout: 5 * time.Second}})
	ctx := context.Background()
	mk := func(p gateway.LinkProvider, ref string) string {
		l, err := p.CreateLink(ctx, gateway.LinkRequest{Amount: 500, Currency: "INR", Reference: ref, ExpiresAt: time.Now().Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		return l.ID
	}
	open, paid := mk(rzp, "cancel-1"), mk(rzp, "cancel-2")
	gw.FailLinkCancels(1)
	if err := rzp.CancelLink(ctx, open); !errors.Is(err, gateway.ErrUnavailable) {
		t.Fatalf("gateway down: %v", err)
	}
	if err := rzp.CancelLink(ctx, open); err != nil || gw.LinkStatus(open) != "cancelled" {
		t.Fatalf("retry: %v, stub %s", err, gw.LinkStatus(open))
	}
	if err := rzp.CancelLink(ctx, open); err != nil {
		t.Fatalf("cancelled twice: %v", err)
	}
	gw.PayLink(paid)
	if err := rzp.CancelLink(ctx, paid); !errors.Is(err, gateway.ErrLinkPaid) || !errors.Is(err, gateway.ErrRefused) {
		t.Fatalf("paid link: %v", err)
	}

	sim := gateway.NewSimulator()
	a, b := mk(sim, "sim-cancel-"+time.Now().String()), mk(sim, "sim-cancel-b-"+time.Now().String())
	if err := sim.CancelLink(ctx, a); err != nil || !gateway.SimulatorCancelled(a) {
		t.Fatalf("simulator: %v", err)
	}
	gateway.SimulatePaidLink(b)
	if err := sim.CancelLink(ctx, b); !errors.Is(err, gateway.ErrLinkPaid) {
		t.Fatalf("simulator paid link: %v", err)
	}
}
