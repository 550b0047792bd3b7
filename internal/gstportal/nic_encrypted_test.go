package gstportal_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/gstportal"
	"github.com/gocommerce/shop/internal/gstportal/gstsim"
)

// wire keeps every request and answer body the adapter exchanged.
type wire struct {
	mu     sync.Mutex
	bodies []string
}

func (w *wire) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		b, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(b))
		w.add(string(b))
	}
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body = io.NopCloser(bytes.NewReader(b))
	w.add(string(b))
	return resp, nil
}

func (w *wire) add(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.bodies = append(w.bodies, s)
}

func (w *wire) contains(sub string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, b := range w.bodies {
		if strings.Contains(b, sub) {
			return true
		}
	}
	return false
}

// The NIC adapter with NIC's payload encryption against a simulator that
// requires it, end to end: auth (credentials and app key under the RSA
// key, the SEK back under the app key), Generate IRN, Get IRN by document
// details and the e-way bill by IRN (after the portal forgot the session:
// the adapter authenticates again), every payload AES-256 under the SEK
// both ways (nothing of the invoice, the credentials or the answers in
// clear on the wire); a plain session is refused, and so is an encrypted
// one with the wrong key.
func TestNICEncryptedAgainstTheSimulator(t *testing.T) {
	ctx := context.Background()
	sim, err := gstsim.NewWith(gstsim.Credentials{User: "api-user", Password: "s3cret-pw", ClientID: "cid", ClientSecret: "csecret"},
		gstsim.Options{RequireEncryption: true})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim.Handler())
	t.Cleanup(srv.Close)
	w := &wire{}
	cfg := gstportal.NICConfig{BaseURL: srv.URL, User: "api-user", Password: "s3cret-pw", ClientID: "cid", ClientSecret: "csecret",
		KeyURL: srv.URL + "/sim/key", EncryptionKeyURL: srv.URL + "/sim/nic-key", Client: &http.Client{Transport: w, Timeout: 10 * time.Second}}
	nic := gstportal.NewNIC(cfg)

	inv := invoice("INV/26-27/000101")
	irn, err := nic.GenerateIRN(ctx, inv)
	if err != nil {
		t.Fatal(err)
	}
	fy, _ := gstportal.FinancialYear(inv.DocDtls.Dt)
	if irn.Irn != gstportal.ComputeIRN(seller, fy, "INV", inv.DocDtls.No) {
		t.Fatalf("IRN %s", irn.Irn)
	}
	key, err := nic.PublicKey(ctx)
	if err != nil || gstportal.Verify(key, irn) != nil {
		t.Fatalf("verify: %v", err)
	}
	again, err := nic.IRNByDocument(ctx, seller, "INV", inv.DocDtls.No, inv.DocDtls.Dt)
	if err != nil || again.Irn != irn.Irn {
		t.Fatalf("by document: %v", err)
	}
	// The portal forgets the session (expired, restarted): the adapter
	// authenticates again instead of failing the call.
	sim.RevokeTokens()
	bill, err := nic.EwayBillByIRN(ctx, seller, irn.Irn, gstportal.Transport{VehicleNumber: "KA01AB1234"})
	if err != nil || bill.Number == 0 {
		t.Fatalf("e-way bill: %+v %v", bill, err)
	}
	// The auth's answer is in clear by NIC's design (its Sek encrypted
	// with the app key); nothing else is.
	for _, clear := range []string{"s3cret-pw", "SellerDtls", "Sahyadri", "SignedQRCode", "EwbNo", "KA01AB1234", irn.Irn} {
		if w.contains(clear) {
			t.Errorf("%q went over the wire in clear", clear)
		}
	}
	if !w.contains("Sek") {
		t.Error("no Sek in the auth's answer")
	}
	// A refusal still reaches the caller with its code (in clear, as NIC
	// sends refusals).
	if _, err := nic.GenerateIRN(ctx, inv); err == nil {
		t.Fatal("a duplicate was registered")
	} else if pe, ok := gstportal.Refusal(err); !ok || pe.Code != gstportal.CodeDuplicateIRN || pe.Duplicate == nil {
		t.Fatalf("duplicate: %v", err)
	}

	plain := gstportal.NewNIC(gstportal.NICConfig{BaseURL: srv.URL, User: "api-user", Password: "s3cret-pw", ClientID: "cid",
		ClientSecret: "csecret"})
	if _, err := plain.GenerateIRN(ctx, invoice("INV/26-27/000102")); err == nil {
		t.Fatal("a plain session was let in")
	} else if pe, ok := gstportal.Refusal(err); !ok || pe.Code != "1013" {
		t.Fatalf("plain session: %v", err)
	}
	other, _ := gstsim.New(gstsim.Credentials{})
	wrongKey, _ := gstportal.ParsePublicKey(other.EncryptionKeyPEM())
	cfg.EncryptionKey, cfg.EncryptionKeyURL, cfg.Client = wrongKey, "", nil
	if _, err := gstportal.NewNIC(cfg).GenerateIRN(ctx, invoice("INV/26-27/000103")); err == nil {
		t.Fatal("an auth under another key was let in")
	} else if pe, ok := gstportal.Refusal(err); !ok || pe.Code != "1016" {
		t.Fatalf("wrong key: %v", err)
	}
	if sim.Registered() != 1 {
		t.Fatalf("%d registered", sim.Registered())
	}
}

// The simulator refuses a document of a taxpayer with AATO of ₹10 crore or
// more dated 30 days before today (2305) and takes one dated 29 days
// before; a smaller taxpayer's old document is taken.
func TestSimulatorReportingWindow(t *testing.T) {
	ctx := context.Background()
	sim, err := gstsim.NewWith(gstsim.Credentials{}, gstsim.Options{LargeTaxpayers: []string{seller}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim.Handler())
	t.Cleanup(srv.Close)
	nic := gstportal.NewNIC(gstportal.NICConfig{BaseURL: srv.URL, User: "u", Password: "p", ClientID: "c", ClientSecret: "s",
		EncryptionKeyURL: srv.URL + "/sim/nic-key"})
	dated := func(no string, daysAgo int) *gstportal.Invoice {
		inv := invoice(no)
		inv.DocDtls.Dt = time.Now().In(gstportal.IST).AddDate(0, 0, -daysAgo).Format(gstportal.DateLayout)
		return inv
	}
	if _, err := nic.GenerateIRN(ctx, dated("INV/26-27/000201", 30)); err == nil {
		t.Fatal("a document 30 days old was registered")
	} else if pe, ok := gstportal.Refusal(err); !ok || pe.Code != gstportal.CodeReportingWindow {
		t.Fatalf("30 days old: %v", err)
	}
	if _, err := nic.GenerateIRN(ctx, dated("INV/26-27/000202", 29)); err != nil {
		t.Fatalf("29 days old: %v", err)
	}
	small := dated("INV/26-27/000203", 90)
	small.SellerDtls.Gstin, small.BuyerDtls.Gstin = buyer, seller
	small.SellerDtls.Stcd, small.BuyerDtls.Stcd, small.BuyerDtls.Pos = "27", "29", "29"
	if _, err := nic.GenerateIRN(ctx, small); err != nil {
		t.Fatalf("a smaller taxpayer's old document: %v", err)
	}
}
