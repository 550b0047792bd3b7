package gstportal_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/gstportal"
	"github.com/gocommerce/shop/internal/gstportal/gstsim"
)

// paths counts the requests by path.
type paths struct {
	wire
	mu sync.Mutex
	n  map[string]int
}

func (p *paths) RoundTrip(r *http.Request) (*http.Response, error) {
	p.mu.Lock()
	if p.n == nil {
		p.n = map[string]int{}
	}
	p.n[r.URL.Path]++
	p.mu.Unlock()
	return p.wire.RoundTrip(r)
}

func (p *paths) count(path string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n[path]
}

// ewbRequest is an inter-state e-way bill of a B2B invoice from Bengaluru
// to Mumbai (₹60,000 of shirts at 5 % IGST), by road in vehicle KA01AB1234,
// distance km (0: from the pincodes).
func ewbRequest(no string, km int) *gstportal.EwbRequest {
	return &gstportal.EwbRequest{SupplyType: "O", SubSupplyType: 1, DocType: "INV", DocNo: no,
		DocDate: time.Now().In(gstportal.IST).Format(gstportal.DateLayout), TransactionType: 1,
		FromGstin: seller, FromTrdName: "Sahyadri Handlooms", FromAddr1: "14 Commercial Street", FromPlace: "Bengaluru",
		FromPincode: 560001, FromStateCode: 29, ActFromStateCode: 29, ToGstin: buyer, ToTrdName: "Bharat Traders",
		ToAddr1: "1 Marine Drive", ToPlace: "Mumbai", ToPincode: 400001, ToStateCode: 27, ActToStateCode: 27,
		TotalValue: 60000, IgstValue: 3000, TotInvValue: 63000, TransMode: 1, TransDistance: km, VehicleNo: "KA01AB1234",
		VehicleType: "R", MainHsnCode: "6205", ItemList: []gstportal.EwbItem{{ItemNo: 1, ProductDesc: "Cotton shirt",
			HsnCode: "6205", QtyUnit: "NOS", Quantity: 60, TaxableAmount: 60000, IgstRate: 5}}}
}

// The nic adapter's e-way bill without an IRN, against the simulator's
// e-way bill API: its own login (ACCESSTOKEN, the credentials under the
// e-way bill system's key), the payload and the answer under the session
// key (nothing of them in clear on the wire), the validity a day per 200 km
// or part; a token the system no longer holds (238) logs in again once; a
// payload refused with NIC's codes (702 a distance too high, 226 no
// vehicle or transporter, 604 the same document again) reaches the caller
// as a refusal; another key's login is refused (109); no URL is
// ErrNoEwbAPI.
func TestEwayBillAPIAgainstTheSimulator(t *testing.T) {
	ctx := context.Background()
	sim, err := gstsim.New(gstsim.Credentials{User: "ewb-user", Password: "ewb-s3cret", ClientID: "ewb-cid", ClientSecret: "ewb-csecret"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim.Handler())
	t.Cleanup(srv.Close)
	p := &paths{}
	ewb := gstportal.EwbConfig{URL: srv.URL + gstportal.PathEwbBase, User: "ewb-user", Password: "ewb-s3cret", ClientID: "ewb-cid",
		ClientSecret: "ewb-csecret", KeyURL: srv.URL + "/sim/ewb-key"}
	nic := gstportal.NewNIC(gstportal.NICConfig{BaseURL: srv.URL, Client: &http.Client{Transport: p, Timeout: 10 * time.Second}, Ewb: ewb})
	auth, api := gstportal.PathEwbBase+gstportal.PathEwbAuth, gstportal.PathEwbBase+gstportal.PathEwbAPI

	km := gstsim.PinDistance(560001, 400001)
	bill, err := nic.EwayBill(ctx, ewbRequest("INV/26-27/000301", 0))
	if err != nil {
		t.Fatal(err)
	}
	if bill.Number == 0 || bill.DistanceKm != km || !bill.ValidUntil.Equal(gstsim.Validity(bill.Date, km)) {
		t.Fatalf("e-way bill %+v, want %d km from the pincodes valid to %s", bill, km, gstsim.Validity(bill.Date, km))
	}
	d := bill.Date.In(gstportal.IST)
	if want := time.Date(d.Year(), d.Month(), d.Day()+(km+199)/200, 23, 59, 0, 0, gstportal.IST); !bill.ValidUntil.Equal(want) {
		t.Fatalf("valid until %s, want %s (a day per 200 km or part)", bill.ValidUntil, want)
	}
	for _, clear := range []string{"ewb-s3cret", "ewb-user", "fromGstin", "Sahyadri", "KA01AB1234", "ewayBillNo", "validUpto"} {
		if p.contains(clear) {
			t.Errorf("%q went over the wire in clear", clear)
		}
	}
	if !p.contains(`"action":"GENEWAYBILL"`) || !p.contains(`"sek"`) || p.count(auth) != 1 {
		t.Fatalf("the wire: %d logins", p.count(auth))
	}

	// The system forgets the session: one new login, the bill generated.
	sim.RevokeTokens()
	if _, err := nic.EwayBill(ctx, ewbRequest("INV/26-27/000302", 1000)); err != nil {
		t.Fatalf("after the session was forgotten: %v", err)
	}
	if p.count(auth) != 2 || p.count(api) != 3 {
		t.Fatalf("%d logins and %d calls, want 2 and 3 (the refused call made once more)", p.count(auth), p.count(api))
	}

	// Refusals carry NIC's codes and messages.
	refused := func(req *gstportal.EwbRequest, code string) {
		t.Helper()
		_, err := nic.EwayBill(ctx, req)
		pe, ok := gstportal.Refusal(err)
		if !ok || pe.Code != code || pe.Message != gstportal.EwbErrors[code] {
			t.Fatalf("want refusal %s, got %v", code, err)
		}
	}
	refused(ewbRequest("INV/26-27/000303", 2*km), "702")
	bare := ewbRequest("INV/26-27/000304", 0)
	bare.VehicleNo, bare.VehicleType, bare.TransMode = "", "", 0
	refused(bare, "226")
	intra := ewbRequest("INV/26-27/000305", 0)
	intra.ToStateCode, intra.ActToStateCode = 29, 29
	if _, err := nic.EwayBill(ctx, intra); err == nil {
		t.Fatal("IGST within a state was taken")
	} else if pe, _ := gstportal.Refusal(err); pe == nil || pe.Code != "218" || !strings.Contains(pe.Message, "623: ") {
		t.Fatalf("IGST within a state: %v", err)
	}
	refused(ewbRequest("INV/26-27/000301", 0), "604")
	if p.count(auth) != 2 {
		t.Fatalf("a refused payload logged in again: %d logins", p.count(auth))
	}

	// Another key's login is refused; no URL is a configuration error.
	other, _ := gstsim.New(gstsim.Credentials{})
	wrongKey, _ := gstportal.ParsePublicKey(other.EwbKeyPEM())
	bad := ewb
	bad.Key, bad.KeyURL = wrongKey, ""
	if _, err := gstportal.NewNIC(gstportal.NICConfig{Ewb: bad}).EwayBill(ctx, ewbRequest("INV/26-27/000306", 0)); err == nil {
		t.Fatal("a login under another key was let in")
	} else if pe, ok := gstportal.Refusal(err); !ok || pe.Code != "109" {
		t.Fatalf("wrong key: %v", err)
	}
	if _, err := gstportal.NewNIC(gstportal.NICConfig{}).EwayBill(ctx, ewbRequest("INV/26-27/000307", 0)); !errors.Is(err, gstportal.ErrNoEwbAPI) {
		t.Fatalf("no URL: %v", err)
	}
}

// An answer in the shape of NIC's GET APIs (data under a random key rek,
// rek under the SEK, hmac of the base64 JSON under rek) decrypts, and one
// whose hmac does not match is not taken.
func TestEwbAnswerUnderRek(t *testing.T) {
	sek, _ := gstportal.NewAppKey()
	rek, _ := gstportal.NewAppKey()
	plain := []byte(`{"ewayBillNo":391000000001}`)
	data, _ := gstportal.EncryptECB(rek, plain)
	encRek, _ := gstportal.EncryptECB(sek, rek)
	m := hmac.New(sha256.New, rek)
	m.Write([]byte(base64.StdEncoding.EncodeToString(plain)))
	mac := base64.StdEncoding.EncodeToString(m.Sum(nil))
	env := func(mac string) []byte {
		raw, _ := json.Marshal(map[string]string{"status": "1", "data": data, "rek": encRek, "hmac": mac})
		return raw
	}
	got, err := gstportal.DecryptEwbAnswer(sek, env(mac))
	if err != nil || string(got) != string(plain) {
		t.Fatalf("under rek: %s %v", got, err)
	}
	if _, err := gstportal.DecryptEwbAnswer(sek, env(base64.StdEncoding.EncodeToString([]byte("forged")))); err == nil {
		t.Fatal("a wrong hmac was taken")
	}
}
