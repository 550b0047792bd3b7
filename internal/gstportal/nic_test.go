package gstportal_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/gstportal"
	"github.com/gocommerce/shop/internal/gstportal/gstsim"
)

func gstinOf(code, pan string) string {
	s := code + pan + "1Z"
	return s + string(gstin.CheckChar(s))
}

var (
	seller = gstinOf("29", "AABCS1429B")
	buyer  = gstinOf("27", "AAACB7383J")
)

// invoice is a valid inter-state e-invoice dated today.
func invoice(no string) *gstportal.Invoice {
	return &gstportal.Invoice{Version: "1.1", TranDtls: gstportal.TranDtls{TaxSch: "GST", SupTyp: "B2B", RegRev: "N"},
		DocDtls:    gstportal.DocDtls{Typ: "INV", No: no, Dt: time.Now().In(gstportal.IST).Format(gstportal.DateLayout)},
		SellerDtls: gstportal.Party{Gstin: seller, LglNm: "Sahyadri Handlooms", Addr1: "14 Commercial Street", Loc: "Bengaluru", Pin: 560001, Stcd: "29"},
		BuyerDtls: gstportal.Party{Gstin: buyer, LglNm: "Bharat Traders", Pos: "27", Addr1: "1 Marine Drive", Loc: "Mumbai", Pin: 400001,
			Stcd: "27"},
		ItemList: []gstportal.Item{{SlNo: "1", PrdDesc: "Cotton shirt", IsServc: "N", HsnCd: "6205", Qty: 1, Unit: "NOS",
			UnitPrice: 1000, TotAmt: 1000, AssAmt: 1000, GstRt: 5, IgstAmt: 50, TotItemVal: 1050}},
		ValDtls: gstportal.ValDtls{AssVal: 1000, IgstVal: 50, TotInvVal: 1050}}
}

func mustSim(t *testing.T, creds gstsim.Credentials) (*gstsim.Server, string) {
	t.Helper()
	sim, err := gstsim.New(creds)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim.Handler())
	t.Cleanup(srv.Close)
	return sim, srv.URL
}

// The NIC adapter against the simulator: credentials refused, the IRN as
// computed, a duplicate naming the first and the document's e-invoice got
// back by its details, the IRP's refusals with their codes, a signature
// that does not verify with another key, and an e-way bill by IRN whose
// distance the portal took from the pincodes.
func TestNICAgainstTheSimulator(t *testing.T) {
	ctx := context.Background()
	sim, url := mustSim(t, gstsim.Credentials{User: "api-user", Password: "secret", ClientID: "cid", ClientSecret: "csecret"})
	wrong := gstportal.NewNIC(gstportal.NICConfig{BaseURL: url, User: "api-user", Password: "guess", ClientID: "cid", ClientSecret: "csecret"})
	if _, err := wrong.GenerateIRN(ctx, invoice("INV/26-27/000001")); err == nil {
		t.Fatal("a wrong password was let in")
	} else if pe, ok := gstportal.Refusal(err); !ok || pe.Code != "1005" {
		t.Fatalf("wrong password: %v", err)
	}
	nic := gstportal.NewNIC(gstportal.NICConfig{BaseURL: url, User: "api-user", Password: "secret", ClientID: "cid", ClientSecret: "csecret",
		KeyURL: url + "/sim/key"})

	inv := invoice("INV/26-27/000001")
	irn, err := nic.GenerateIRN(ctx, inv)
	if err != nil {
		t.Fatal(err)
	}
	fy, _ := gstportal.FinancialYear(inv.DocDtls.Dt)
	if want := gstportal.ComputeIRN(seller, fy, "INV", "INV/26-27/000001"); irn.Irn != want || irn.AckNo == 0 {
		t.Fatalf("IRN %s ack %d, want %s", irn.Irn, irn.AckNo, want)
	}
	key, err := nic.PublicKey(ctx)
	if err != nil || gstportal.Verify(key, irn) != nil || !key.Equal(sim.PublicKey()) {
		t.Fatalf("the simulator's key from /sim/key: %v", err)
	}
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	if err := gstportal.Verify(&other.PublicKey, irn); !errors.Is(err, gstportal.ErrBadSignature) {
		t.Fatalf("verified with another key: %v", err)
	}

	_, err = nic.GenerateIRN(ctx, inv)
	pe, ok := gstportal.Refusal(err)
	if !ok || pe.Code != gstportal.CodeDuplicateIRN || pe.Duplicate == nil || pe.Duplicate.Irn != irn.Irn || pe.Duplicate.AckNo != irn.AckNo {
		t.Fatalf("duplicate: %v %+v", err, pe)
	}
	again, err := nic.IRNByDocument(ctx, seller, "INV", "INV/26-27/000001", inv.DocDtls.Dt)
	if err != nil || again.Irn != irn.Irn || again.SignedQRCode != irn.SignedQRCode {
		t.Fatalf("by document: %v", err)
	}
	if sim.Registered() != 1 {
		t.Fatalf("%d registered", sim.Registered())
	}

	bad := invoice("INV/26-27/000002")
	bad.BuyerDtls.Gstin = buyer[:14] + "0"
	if _, err := nic.GenerateIRN(ctx, bad); err == nil {
		t.Fatal("an invalid buyer GSTIN was registered")
	} else if pe, _ := gstportal.Refusal(err); pe == nil || pe.Code != gstportal.CodeInvalidGSTIN {
		t.Fatalf("invalid GSTIN: %v", err)
	}
	bad = invoice("INV/26-27/000003")
	bad.ValDtls.TotInvVal = 2000
	if _, err := nic.GenerateIRN(ctx, bad); err == nil {
		t.Fatal("totals that do not add up were registered")
	}

	bill, err := nic.EwayBillByIRN(ctx, seller, irn.Irn, gstportal.Transport{VehicleNumber: "KA01AB1234"})
	if err != nil {
		t.Fatal(err)
	}
	km := gstsim.PinDistance(560001, 400001)
	if bill.Number == 0 || bill.DistanceKm != km || !bill.ValidUntil.Equal(gstsim.Validity(bill.Date, km)) {
		t.Fatalf("e-way bill %+v, want %d km valid to %s", bill, km, gstsim.Validity(bill.Date, km))
	}
	if _, err := nic.EwayBillByIRN(ctx, seller, irn.Irn, gstportal.Transport{}); err == nil {
		t.Fatal("an e-way bill without vehicle or transporter")
	}
}

// Rule 138(10): a day per 200 km or part, each ending at midnight.
func TestValidity(t *testing.T) {
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, gstportal.IST)
	for _, c := range []struct {
		km   int
		want int
	}{{1, 1}, {200, 1}, {201, 2}, {950, 5}, {1000, 5}} {
		if got := gstsim.Validity(at, c.km); !got.Equal(time.Date(2026, 11, 29+c.want, 23, 59, 0, 0, gstportal.IST)) {
			t.Errorf("%d km: valid to %s, want %d days", c.km, got, c.want)
		}
	}
}
