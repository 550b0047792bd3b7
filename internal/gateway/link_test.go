package gateway_test

import (
	"context"
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
