// Package shiprockettest is the courier simulator: a local server speaking
// the shapes of Shiprocket's public API v1 (external) that the shop's
// Shiprocket client calls, refusing what Shiprocket refuses (a bad token,
// an unknown shipment, an AWB asked twice, a pickup before the AWB, an NDR
// action on a parcel not in NDR), plus its own /sim/scans, which records a
// scan and posts the tracking webhook to the shop with X-Api-Key as
// Shiprocket does. `shop carrier-sim` runs it for `make run`; tests start
// it in-process (New + httptest).
package shiprockettest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gocommerce/shop/internal/courier"
)

// Config is the simulator's account and behaviour.
type Config struct {
	// Email and Password are the account's login (CARRIER_EMAIL,
	// CARRIER_PASSWORD).
	Email, Password string
	// Unserviceable and NoCOD are pincodes it does not serve, or serves
	// without collecting cash (CARRIER_SIM_UNSERVICEABLE, CARRIER_SIM_NO_COD).
	Unserviceable, NoCOD []string
	// WebhookURL and WebhookToken are where scans are posted and the token
	// sent in X-Api-Key (CARRIER_WEBHOOK_URL, CARRIER_WEBHOOK_TOKEN).
	WebhookURL, WebhookToken string
	// Auto plays booked → picked_up → in_transit → out_for_delivery →
	// delivered by itself, Step apart, after an AWB is assigned
	// (CARRIER_SIM_AUTO).
	Auto bool
	Step time.Duration
	// PublicURL is the simulator's own address, for label and manifest URLs.
	PublicURL string
	Log       *slog.Logger
}

// order is one order of the simulated account, with its one shipment.
type order struct {
	ID, ShipmentID   int64
	ChannelOrderID   string
	Pincode, Name    string
	Address, City    string
	COD              bool
	SubTotal         string
	AWB, CourierName string
	Pickup           *time.Time
	Status           string
	LastScan         time.Time
	Scans            []courier.Scan
}

// Server is the simulator.
type Server struct {
	cfg    Config
	client *http.Client
	mu     sync.Mutex
	tokens map[string]bool
	orders map[int64]*order
	byAWB  map[string]*order
	nextID int64
	// faults: answers to break on purpose (tests of crashed bookings).
	failCreateAnswer, failAWB int
	ndr                       []string
	docs                      map[string][][]string
	stop                      chan struct{}
	stopOnce                  sync.Once
}

// New returns a simulator.
func New(cfg Config) *Server {
	if cfg.Step <= 0 {
		cfg.Step = 3 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Server{cfg: cfg, client: &http.Client{Timeout: 10 * time.Second}, tokens: map[string]bool{},
		orders: map[int64]*order{}, byAWB: map[string]*order{}, nextID: 1000, docs: map[string][][]string{},
		stop: make(chan struct{})}
}

// SetPublicURL sets the address label and manifest URLs are built on (the
// listener's, once known).
func (s *Server) SetPublicURL(u string) {
	s.mu.Lock()
	s.cfg.PublicURL = strings.TrimRight(u, "/")
	s.mu.Unlock()
}

// SetWebhook sets where scans are posted.
func (s *Server) SetWebhook(url, token string) {
	s.mu.Lock()
	s.cfg.WebhookURL, s.cfg.WebhookToken = url, token
	s.mu.Unlock()
}

// Close stops the automatic scans.
func (s *Server) Close() { s.stopOnce.Do(func() { close(s.stop) }) }

// ExpireTokens forgets every token given, as Shiprocket's expire after
// ten days.
func (s *Server) ExpireTokens() { s.mu.Lock(); s.tokens = map[string]bool{}; s.mu.Unlock() }

// FailNextCreateAnswer makes the next n order creations create the order
// and then answer 502, as a connection lost after the courier acted.
func (s *Server) FailNextCreateAnswer(n int) { s.mu.Lock(); s.failCreateAnswer = n; s.mu.Unlock() }

// FailNextAWB makes the next n AWB assignments answer 502 without
// assigning.
func (s *Server) FailNextAWB(n int) { s.mu.Lock(); s.failAWB = n; s.mu.Unlock() }

// Orders counts the orders made for channelOrderID.
func (s *Server) Orders(channelOrderID string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, o := range s.orders {
		if o.ChannelOrderID == channelOrderID {
			n++
		}
	}
	return n
}

// NDRActions lists the NDR actions received, "awb:action".
func (s *Server) NDRActions() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.ndr...)
}

// Handler is the simulator's routes.
func (s *Server) Handler() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("POST /v1/external/auth/login", s.login)
	m.HandleFunc("GET /v1/external/courier/serviceability/", s.authed(s.serviceability))
	m.HandleFunc("GET /v1/external/orders", s.authed(s.listOrders))
	m.HandleFunc("POST /v1/external/orders/create/adhoc", s.authed(s.createOrder))
	m.HandleFunc("POST /v1/external/courier/assign/awb", s.authed(s.assignAWB))
	m.HandleFunc("POST /v1/external/courier/generate/pickup", s.authed(s.pickup))
	m.HandleFunc("POST /v1/external/courier/generate/label", s.authed(s.label))
	m.HandleFunc("POST /v1/external/manifests/generate", s.authed(s.manifest))
	m.HandleFunc("GET /v1/external/courier/track/awb/{awb}", s.authed(s.track))
	m.HandleFunc("POST /v1/external/ndr/{awb}/action", s.authed(s.ndrAction))
	m.HandleFunc("GET /sim/docs/{id}", s.doc)
	m.HandleFunc("POST /sim/scans", s.scanRoute)
	return m
}

func answer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func refuse(w http.ResponseWriter, status int, msg string) {
	answer(w, status, map[string]any{"message": msg, "status_code": status})
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	var in struct{ Email, Password string }
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Email == "" || in.Password == "" {
		refuse(w, http.StatusUnprocessableEntity, "The email and password fields are required.")
		return
	}
	if in.Email != s.cfg.Email || in.Password != s.cfg.Password {
		refuse(w, http.StatusBadRequest, "Invalid email and password combination")
		return
	}
	t := randomHex(24)
	s.mu.Lock()
	s.tokens[t] = true
	s.mu.Unlock()
	answer(w, http.StatusOK, map[string]any{"token": t, "email": in.Email, "company_id": 1})
}

// authed refuses a request without a token the login gave (401, as
// Shiprocket answers an expired or wrong token).
func (s *Server) authed(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		t, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		s.mu.Lock()
		valid := ok && s.tokens[t]
		s.mu.Unlock()
		if !valid {
			refuse(w, http.StatusUnauthorized, "Token has expired")
			return
		}
		h(w, r)
	}
}

func listed(list []string, pin string) bool {
	for _, p := range list {
		if strings.TrimSpace(p) == pin {
			return true
		}
	}
	return false
}

func (s *Server) serviceability(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	from, to := q.Get("pickup_postcode"), q.Get("delivery_postcode")
	if len(from) != 6 || len(to) != 6 {
		refuse(w, http.StatusUnprocessableEntity, "The pickup postcode and delivery postcode must be 6 digits.")
		return
	}
	if listed(s.cfg.Unserviceable, to) {
		refuse(w, http.StatusNotFound, "No courier serviceable for this pincode")
		return
	}
	cod := 1
	if listed(s.cfg.NoCOD, to) {
		cod = 0
	}
	answer(w, http.StatusOK, map[string]any{"status": 200, "data": map[string]any{"available_courier_companies": []map[string]any{
		{"courier_company_id": 10, "courier_name": "SimExpress Surface", "cod": cod, "estimated_delivery_days": "5", "rate": 62.0},
		{"courier_company_id": 11, "courier_name": "SimExpress Air", "cod": cod, "estimated_delivery_days": "2", "rate": 98.0},
	}}})
}

func (s *Server) listOrders(w http.ResponseWriter, r *http.Request) {
	search := r.URL.Query().Get("search")
	s.mu.Lock()
	defer s.mu.Unlock()
	data := []map[string]any{}
	for _, o := range s.orders {
		if search != "" && o.ChannelOrderID != search {
			continue
		}
		data = append(data, map[string]any{"id": o.ID, "channel_order_id": o.ChannelOrderID,
			"shipments": []map[string]any{{"id": o.ShipmentID, "awb": o.AWB, "courier": o.CourierName}}})
	}
	answer(w, http.StatusOK, map[string]any{"data": data})
}

func (s *Server) createOrder(w http.ResponseWriter, r *http.Request) {
	var in struct {
		OrderID        string            `json:"order_id"`
		OrderDate      string            `json:"order_date"`
		PickupLocation string            `json:"pickup_location"`
		Name           string            `json:"billing_customer_name"`
		LastName       string            `json:"billing_last_name"`
		Address        string            `json:"billing_address"`
		City           string            `json:"billing_city"`
		Pincode        string            `json:"billing_pincode"`
		State          string            `json:"billing_state"`
		Phone          string            `json:"billing_phone"`
		Items          []json.RawMessage `json:"order_items"`
		PaymentMethod  string            `json:"payment_method"`
		SubTotal       json.Number       `json:"sub_total"`
		Weight         json.Number       `json:"weight"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		refuse(w, http.StatusUnprocessableEntity, "Invalid JSON")
		return
	}
	var missing []string
	for f, v := range map[string]string{"order_id": in.OrderID, "order_date": in.OrderDate, "pickup_location": in.PickupLocation,
		"billing_customer_name": in.Name, "billing_address": in.Address, "billing_city": in.City, "billing_pincode": in.Pincode,
		"billing_state": in.State, "billing_phone": in.Phone, "payment_method": in.PaymentMethod, "sub_total": in.SubTotal.String(),
		"weight": in.Weight.String()} {
		if v == "" {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 || len(in.Items) == 0 {
		refuse(w, http.StatusUnprocessableEntity, "The given data was invalid: "+strings.Join(append(missing, "order_items"), ", "))
		return
	}
	if in.PaymentMethod != "COD" && in.PaymentMethod != "Prepaid" {
		refuse(w, http.StatusUnprocessableEntity, "The payment method must be COD or Prepaid.")
		return
	}
	if listed(s.cfg.Unserviceable, in.Pincode) {
		refuse(w, http.StatusUnprocessableEntity, "Delivery postcode not serviceable")
		return
	}
	s.mu.Lock()
	s.nextID++
	o := &order{ID: s.nextID, ShipmentID: s.nextID + 500000, ChannelOrderID: in.OrderID, Pincode: in.Pincode,
		Name: strings.TrimSpace(in.Name + " " + in.LastName), Address: in.Address, City: in.City, COD: in.PaymentMethod == "COD",
		SubTotal: in.SubTotal.String(), Status: "NEW"}
	s.orders[o.ID] = o
	lost := s.failCreateAnswer > 0
	if lost {
		s.failCreateAnswer--
	}
	s.mu.Unlock()
	if lost {
		refuse(w, http.StatusBadGateway, "Bad gateway")
		return
	}
	answer(w, http.StatusOK, map[string]any{"order_id": o.ID, "shipment_id": o.ShipmentID, "status": "NEW", "status_code": 1,
		"onboarding_completed_now": 0, "awb_code": "", "courier_company_id": "", "courier_name": ""})
}

// shipmentIDs reads {"shipment_id": ...}: one id or a list, numbers or strings.
func shipmentIDs(r *http.Request) ([]int64, bool) {
	var in struct {
		ShipmentID json.RawMessage `json:"shipment_id"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || len(in.ShipmentID) == 0 {
		return nil, false
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(in.ShipmentID, &raw); err != nil {
		raw = []json.RawMessage{in.ShipmentID}
	}
	var ids []int64
	for _, v := range raw {
		id, err := strconv.ParseInt(strings.Trim(string(v), `"`), 10, 64)
		if err != nil {
			return nil, false
		}
		ids = append(ids, id)
	}
	return ids, len(ids) > 0
}

// shipments finds the orders of ids; false names the first unknown.
func (s *Server) shipments(ids []int64) ([]*order, string) {
	var out []*order
	for _, id := range ids {
		found := false
		for _, o := range s.orders {
			if o.ShipmentID == id {
				out, found = append(out, o), true
			}
		}
		if !found {
			return nil, strconv.FormatInt(id, 10)
		}
	}
	return out, ""
}

func (s *Server) assignAWB(w http.ResponseWriter, r *http.Request) {
	ids, ok := shipmentIDs(r)
	if !ok || len(ids) != 1 {
		refuse(w, http.StatusUnprocessableEntity, "The shipment id field is required.")
		return
	}
	s.mu.Lock()
	os, unknown := s.shipments(ids)
	if unknown != "" {
		s.mu.Unlock()
		refuse(w, http.StatusNotFound, "Shipment "+unknown+" not found")
		return
	}
	o := os[0]
	if o.AWB != "" {
		s.mu.Unlock()
		refuse(w, http.StatusBadRequest, "AWB is already assigned")
		return
	}
	if s.failAWB > 0 {
		s.failAWB--
		s.mu.Unlock()
		refuse(w, http.StatusBadGateway, "Bad gateway")
		return
	}
	o.AWB, o.CourierName, o.Status = fmt.Sprintf("SIM%011d", o.ShipmentID), "SimExpress Surface", "AWB ASSIGNED"
	s.byAWB[o.AWB] = o
	awb, auto := o.AWB, s.cfg.Auto
	s.mu.Unlock()
	if auto {
		go s.play(awb)
	}
	answer(w, http.StatusOK, map[string]any{"awb_assign_status": 1, "response": map[string]any{"data": map[string]any{
		"awb_code": o.AWB, "courier_company_id": 10, "courier_name": o.CourierName, "shipment_id": o.ShipmentID, "order_id": o.ID,
		"assigned_date_time": map[string]any{"date": time.Now().In(ist).Format("2006-01-02 15:04:05")}}}})
}

var ist = time.FixedZone("IST", 5*3600+1800)

func (s *Server) pickup(w http.ResponseWriter, r *http.Request) {
	ids, ok := shipmentIDs(r)
	if !ok {
		refuse(w, http.StatusUnprocessableEntity, "The shipment id field is required.")
		return
	}
	s.mu.Lock()
	os, unknown := s.shipments(ids)
	if unknown == "" {
		for _, o := range os {
			if o.AWB == "" {
				unknown = "awb"
			}
		}
	}
	if unknown != "" {
		s.mu.Unlock()
		refuse(w, http.StatusBadRequest, "Please assign AWB before generating the pickup ("+unknown+")")
		return
	}
	at := time.Now().In(ist).Add(24 * time.Hour).Truncate(time.Hour)
	for _, o := range os {
		o.Pickup, o.Status = &at, "PICKUP SCHEDULED"
	}
	s.mu.Unlock()
	answer(w, http.StatusOK, map[string]any{"pickup_status": 1, "response": map[string]any{
		"pickup_scheduled_date": at.Format("2006-01-02 15:04:05"), "pickup_token_number": "Reference No: " + randomHex(4),
		"status": 3, "data": "Pickup is confirmed"}})
}

func (s *Server) label(w http.ResponseWriter, r *http.Request) {
	ids, ok := shipmentIDs(r)
	if !ok {
		refuse(w, http.StatusUnprocessableEntity, "The shipment id field is required.")
		return
	}
	s.mu.Lock()
	os, unknown := s.shipments(ids)
	var pages [][]string
	for _, o := range os {
		if o.AWB == "" {
			unknown = strconv.FormatInt(o.ShipmentID, 10)
			break
		}
		pay := "PREPAID"
		if o.COD {
			pay = "COD: collect Rs " + o.SubTotal
		}
		pages = append(pages, []string{"SHIPPING LABEL", "Courier: " + o.CourierName, "AWB: " + o.AWB, "Order: " + o.ChannelOrderID,
			"Ship to: " + o.Name, o.Address, o.City + " " + o.Pincode, pay})
	}
	if unknown != "" {
		s.mu.Unlock()
		refuse(w, http.StatusBadRequest, "AWB not assigned for shipment "+unknown)
		return
	}
	id := "label-" + randomHex(8)
	s.docs[id] = pages
	base := s.cfg.PublicURL
	s.mu.Unlock()
	answer(w, http.StatusOK, map[string]any{"label_created": 1, "label_url": base + "/sim/docs/" + id,
		"response": "Label has been created and uploaded successfully!", "not_created": []any{}})
}

func (s *Server) manifest(w http.ResponseWriter, r *http.Request) {
	ids, ok := shipmentIDs(r)
	if !ok {
		refuse(w, http.StatusUnprocessableEntity, "The shipment id field is required.")
		return
	}
	s.mu.Lock()
	os, unknown := s.shipments(ids)
	lines := []string{"MANIFEST"}
	for _, o := range os {
		if o.Pickup == nil {
			unknown = strconv.FormatInt(o.ShipmentID, 10)
			break
		}
		lines = append(lines, fmt.Sprintf("%s  %s  %s  %s", o.AWB, o.ChannelOrderID, o.Name, o.Pincode))
	}
	if unknown != "" {
		s.mu.Unlock()
		refuse(w, http.StatusBadRequest, "Pickup not generated for shipment "+unknown)
		return
	}
	id := "manifest-" + randomHex(8)
	s.docs[id] = [][]string{lines}
	base := s.cfg.PublicURL
	s.mu.Unlock()
	answer(w, http.StatusOK, map[string]any{"status": 1, "manifest_url": base + "/sim/docs/" + id})
}

func (s *Server) doc(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	pages, ok := s.docs[r.PathValue("id")]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/pdf")
	_, _ = w.Write(pdf(pages))
}

func (s *Server) track(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.byAWB[r.PathValue("awb")]
	if !ok {
		refuse(w, http.StatusNotFound, "AWB not found")
		return
	}
	acts := []map[string]any{}
	for i := len(o.Scans) - 1; i >= 0; i-- {
		sc := o.Scans[i]
		acts = append(acts, map[string]any{"date": sc.At.In(ist).Format("2006-01-02 15:04:05"), "activity": sc.Remark,
			"location": sc.Location, "sr-status-label": courier.Label(sc.Status)})
	}
	answer(w, http.StatusOK, map[string]any{"tracking_data": map[string]any{"track_status": 1, "shipment_track": []map[string]any{
		{"awb_code": o.AWB, "current_status": o.Status, "courier_name": o.CourierName}}, "shipment_track_activities": acts}})
}

func (s *Server) ndrAction(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Action string `json:"action"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || (in.Action != "re-attempt" && in.Action != "return") {
		refuse(w, http.StatusUnprocessableEntity, "The action must be re-attempt or return.")
		return
	}
	awb := r.PathValue("awb")
	s.mu.Lock()
	o, ok := s.byAWB[awb]
	if !ok {
		s.mu.Unlock()
		refuse(w, http.StatusNotFound, "AWB not found")
		return
	}
	if o.Status != courier.Label(courier.StatusUndelivered) {
		s.mu.Unlock()
		refuse(w, http.StatusBadRequest, "Action can not be taken: the shipment is not in NDR")
		return
	}
	s.ndr = append(s.ndr, awb+":"+in.Action)
	s.mu.Unlock()
	answer(w, http.StatusOK, map[string]any{"message": "Action taken successfully", "status_code": 200})
}

// ScanRequest is the body of POST /sim/scans.
type ScanRequest struct {
	AWB    string `json:"awb"`
	Status string `json:"status"`
	Reason string `json:"reason"`
	// At backdates the scan (tests of scans out of order); nil: now.
	At *time.Time `json:"at,omitempty"`
}

func (s *Server) scanRoute(w http.ResponseWriter, r *http.Request) {
	var in ScanRequest
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		refuse(w, http.StatusUnprocessableEntity, "Invalid JSON")
		return
	}
	status, err := s.Scan(r.Context(), in)
	if err != nil {
		refuse(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	answer(w, http.StatusOK, map[string]any{"awb": in.AWB, "status": in.Status, "webhookStatus": status})
}

// Scan records a scan of in.AWB and posts its tracking webhook to the
// shop; it answers the webhook's HTTP status (0 when none is configured).
func (s *Server) Scan(ctx context.Context, in ScanRequest) (int, error) {
	known := false
	for _, st := range courier.ScanStatuses {
		known = known || st == in.Status
	}
	if !known {
		return 0, fmt.Errorf("status must be one of %s", strings.Join(courier.ScanStatuses, ", "))
	}
	s.mu.Lock()
	o, ok := s.byAWB[in.AWB]
	if !ok {
		s.mu.Unlock()
		return 0, fmt.Errorf("AWB %s not found", in.AWB)
	}
	var at time.Time
	if in.At != nil {
		at = in.At.UTC().Truncate(time.Second)
	} else {
		// Scans of one AWB a second apart at least: the shop de-duplicates
		// by (AWB, status, time) at the second Shiprocket writes.
		at = time.Now().UTC().Truncate(time.Second)
		if !at.After(o.LastScan) {
			at = o.LastScan.Add(time.Second)
		}
		o.LastScan = at
	}
	sc := courier.Scan{AWB: o.AWB, Status: in.Status, At: at, Location: "SimExpress Hub " + o.City, Remark: in.Reason}
	if sc.Remark == "" {
		sc.Remark = strings.ReplaceAll(in.Status, "_", " ")
	}
	o.Scans = append(o.Scans, sc)
	o.Status = courier.Label(in.Status)
	url, token, channel, name := s.cfg.WebhookURL, s.cfg.WebhookToken, o.ChannelOrderID, o.CourierName
	s.mu.Unlock()
	if url == "" {
		return 0, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(courier.Webhook(sc, channel, name)))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Api-Key", token)
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("posting the webhook: %w", err)
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// play sends the scans of a parcel delivered, Step apart (CARRIER_SIM_AUTO).
func (s *Server) play(awb string) {
	for _, st := range []string{courier.StatusBooked, courier.StatusPickedUp, courier.StatusInTransit,
		courier.StatusOutForDelivery, courier.StatusDelivered} {
		select {
		case <-s.stop:
			return
		case <-time.After(s.cfg.Step):
		}
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		if _, err := s.Scan(ctx, ScanRequest{AWB: awb, Status: st}); err != nil {
			s.cfg.Log.Warn("carrier-sim: automatic scan not delivered", "awb", awb, "status", st, "err", err)
		}
		cancel()
	}
}
