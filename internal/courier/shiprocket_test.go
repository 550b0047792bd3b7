package courier_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/courier"
	"github.com/gocommerce/shop/internal/courier/shiprockettest"
)

// The Shiprocket client against the simulator, which refuses what
// Shiprocket refuses: a wrong login, an expired token (the client logs in
// again once), an unknown shipment, an AWB asked twice, a pickup before
// the AWB, an NDR action on a parcel not in NDR; and it answers an
// unserved pincode as not serviceable.
func TestShiprocketClientAgainstTheSimulator(t *testing.T) {
	sim := shiprockettest.New(shiprockettest.Config{Email: "ops@example.com", Password: "pw-0123456789",
		Unserviceable: []string{"110001"}, NoCOD: []string{"400001"}})
	srv := httptest.NewServer(sim.Handler())
	defer srv.Close()
	sim.SetPublicURL(srv.URL)
	ctx := context.Background()
	client := func(pw string) *courier.ShiprocketClient {
		return courier.NewShiprocket(courier.ShiprocketConfig{BaseURL: srv.URL, Email: "ops@example.com", Password: pw,
			Client: &http.Client{Timeout: 5 * time.Second}})
	}
	if _, err := client("wrong").FindOrder(ctx, "X"); courier.Refused(err) == nil || courier.Refused(err).Status != 400 {
		t.Fatalf("a wrong password: %v", err)
	}
	c := client("pw-0123456789")
	for pin, want := range map[string]courier.Serviceability{
		"560001": {Serviceable: true, COD: true, MinDays: 2, MaxDays: 5},
		"400001": {Serviceable: true, COD: false, MinDays: 2, MaxDays: 5},
		"110001": {},
	} {
		got, err := c.Serviceability(ctx, "560002", pin)
		if err != nil || got != want {
			t.Fatalf("serviceability of %s: %+v %v, want %+v", pin, got, err, want)
		}
	}
	if b, err := c.FindOrder(ctx, "ORD-1"); b != nil || err != nil {
		t.Fatalf("find before create: %v %v", b, err)
	}
	p := courier.Parcel{ChannelOrderID: "ORD-1", OrderDate: time.Now(), PickupLocation: "Primary", Name: "Asha Rao",
		Address: "1 MG Road", City: "Bengaluru", State: "Karnataka", Pincode: "560001", Phone: "9876543210", COD: true,
		SubTotal: 104950, Items: []courier.ParcelItem{{Name: "Saree", SKU: "S1", Units: 1, Price: 104950}}, WeightKg: 0.5}
	b, err := c.CreateOrder(ctx, p)
	if err != nil || b.OrderID == "" || b.ShipmentID == "" {
		t.Fatalf("create: %+v %v", b, err)
	}
	if _, err := c.SchedulePickup(ctx, []string{b.ShipmentID}); courier.Refused(err) == nil {
		t.Fatalf("a pickup before the AWB: %v", err)
	}
	if _, err := c.AssignAWB(ctx, "999"); courier.Refused(err) == nil || courier.Refused(err).Status != 404 {
		t.Fatalf("an unknown shipment: %v", err)
	}
	sim.ExpireTokens()
	awb, err := c.AssignAWB(ctx, b.ShipmentID)
	if err != nil || awb.Code == "" {
		t.Fatalf("AWB after the token expired: %+v %v", awb, err)
	}
	if _, err := c.AssignAWB(ctx, b.ShipmentID); courier.Refused(err) == nil {
		t.Fatalf("an AWB asked twice: %v", err)
	}
	if found, err := c.FindOrder(ctx, "ORD-1"); err != nil || found == nil || found.AWB != awb.Code || found.ShipmentID != b.ShipmentID {
		t.Fatalf("find after the AWB: %+v %v", found, err)
	}
	if err := c.NDRAction(ctx, awb.Code, courier.NDRAction{Action: courier.NDRReattempt}); courier.Refused(err) == nil {
		t.Fatalf("an NDR action on a parcel not in NDR: %v", err)
	}
	at, err := c.SchedulePickup(ctx, []string{b.ShipmentID})
	if err != nil || !at.After(time.Now()) {
		t.Fatalf("pickup: %v %v", at, err)
	}
	url, err := c.Label(ctx, []string{b.ShipmentID})
	if err != nil {
		t.Fatal(err)
	}
	if pdf, err := c.Download(ctx, url); err != nil || string(pdf[:5]) != "%PDF-" {
		t.Fatalf("label: %.10q %v", pdf, err)
	}
	if _, err := c.Manifest(ctx, []string{b.ShipmentID}); err != nil {
		t.Fatal(err)
	}
	if _, err := courier.NewManual().CreateOrder(ctx, p); err != courier.ErrNotConfigured {
		t.Fatalf("manual: %v", err)
	}
}

// Scans normalise Shiprocket's labels and never move a shipment back.
func TestScansMoveOnlyForward(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	later, earlier := t0.Add(time.Minute), t0.Add(-time.Minute)
	tests := []struct {
		name     string
		cur      string
		last     *time.Time
		next     string
		at       time.Time
		advances bool
	}{
		{"first scan", courier.StatusBooked, nil, courier.StatusPickedUp, t0, true},
		{"forward", courier.StatusPickedUp, &t0, courier.StatusInTransit, later, true},
		{"back", courier.StatusOutForDelivery, &t0, courier.StatusPickedUp, later, false},
		{"late", courier.StatusInTransit, &t0, courier.StatusOutForDelivery, earlier, false},
		{"after delivered", courier.StatusDelivered, &t0, courier.StatusInTransit, later, false},
		{"reattempt", courier.StatusUndelivered, &t0, courier.StatusOutForDelivery, later, true},
		{"second NDR", courier.StatusOutForDelivery, &t0, courier.StatusUndelivered, later, true},
		{"rto after NDR", courier.StatusUndelivered, &t0, courier.StatusRTOInitiated, later, true},
		{"delivery after rto", courier.StatusRTOInitiated, &t0, courier.StatusOutForDelivery, later, false},
	}
	for _, tt := range tests {
		if got := courier.Advances(tt.cur, tt.last, tt.next, tt.at); got != tt.advances {
			t.Errorf("%s: Advances = %v", tt.name, got)
		}
	}
	for label, want := range map[string]string{"OUT FOR DELIVERY": "out_for_delivery", "RTO Delivered": "rto_delivered",
		"Pickup Scheduled": "booked", "picked_up": "picked_up", "DAMAGED": ""} {
		if got := courier.Normalize(label); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", label, got, want)
		}
	}
}
