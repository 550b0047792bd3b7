package courier

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// requests counts the calls to the courier's API by operation and outcome
// (ok, refused, error).
var requests = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "courier_requests_total",
	Help: "Calls to the courier's API by operation and outcome.",
}, []string{"operation", "outcome"})

// ShiprocketConfig is how to reach a Shiprocket account (or the simulator,
// which speaks the same API).
type ShiprocketConfig struct {
	// BaseURL is the API's root, e.g. https://apiv2.shiprocket.in.
	BaseURL  string
	Email    string
	Password string
	// Client has the timeout of every call.
	Client *http.Client
	// Name is what Name answers: shiprocket, or simulator.
	Name string
}

// ShiprocketClient speaks Shiprocket's public API v1 (external): a token
// from POST /v1/external/auth/login sent as a Bearer token, renewed once
// when a call answers 401.
type ShiprocketClient struct {
	cfg   ShiprocketConfig
	mu    sync.Mutex
	token string
}

// NewShiprocket returns the client of cfg.
func NewShiprocket(cfg ShiprocketConfig) *ShiprocketClient {
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if cfg.Name == "" {
		cfg.Name = Shiprocket
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return &ShiprocketClient{cfg: cfg}
}

// Name is shiprocket or simulator.
func (c *ShiprocketClient) Name() string { return c.cfg.Name }

// login fetches a token.
func (c *ShiprocketClient) login(ctx context.Context) (string, error) {
	var out struct {
		Token string `json:"token"`
	}
	body := map[string]string{"email": c.cfg.Email, "password": c.cfg.Password}
	if err := c.send(ctx, "login", http.MethodPost, "/v1/external/auth/login", "", body, &out); err != nil {
		return "", err
	}
	if out.Token == "" {
		return "", fmt.Errorf("courier.login: no token in the answer")
	}
	return out.Token, nil
}

// call sends one authenticated request, logging in first when no token is
// held and once more when the token is refused.
func (c *ShiprocketClient) call(ctx context.Context, op, method, path string, in, out any) error {
	for attempt := 0; ; attempt++ {
		c.mu.Lock()
		token := c.token
		c.mu.Unlock()
		if token == "" {
			t, err := c.login(ctx)
			if err != nil {
				return err
			}
			c.mu.Lock()
			c.token, token = t, t
			c.mu.Unlock()
		}
		err := c.send(ctx, op, method, path, token, in, out)
		if r := Refused(err); r != nil && r.Status == http.StatusUnauthorized && attempt == 0 {
			c.mu.Lock()
			if c.token == token {
				c.token = ""
			}
			c.mu.Unlock()
			continue
		}
		return err
	}
}

// send makes one request and decodes a 2xx answer into out; a 4xx is a
// *Refusal with the courier's message.
func (c *ShiprocketClient) send(ctx context.Context, op, method, path, token string, in, out any) (err error) {
	defer func() {
		outcome := "ok"
		if Refused(err) != nil {
			outcome = "refused"
		} else if err != nil {
			outcome = "error"
		}
		requests.WithLabelValues(op, outcome).Inc()
	}()
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("courier.%s: %w", op, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.cfg.BaseURL+path, body)
	if err != nil {
		return fmt.Errorf("courier.%s: %w", op, err)
	}
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.cfg.Client.Do(req)
	if err != nil {
		return fmt.Errorf("courier.%s: %w", op, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("courier.%s: %w", op, err)
	}
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		var e struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(raw, &e)
		if e.Message == "" {
			e.Message = http.StatusText(resp.StatusCode)
		}
		return &Refusal{Status: resp.StatusCode, Message: e.Message}
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("courier.%s: the courier answered %d", op, resp.StatusCode)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("courier.%s: decoding the answer: %w", op, err)
	}
	return nil
}

// Serviceability is GET /v1/external/courier/serviceability/: serviceable
// when some courier company serves the pair, COD when one of them collects
// cash; the days are the fastest and slowest companies' estimates.
func (c *ShiprocketClient) Serviceability(ctx context.Context, from, to string) (Serviceability, error) {
	q := url.Values{"pickup_postcode": {from}, "delivery_postcode": {to}, "weight": {"0.5"}, "cod": {"0"}}
	var out struct {
		Data struct {
			Companies []struct {
				CourierName   string `json:"courier_name"`
				COD           int    `json:"cod"`
				EstimatedDays string `json:"estimated_delivery_days"`
			} `json:"available_courier_companies"`
		} `json:"data"`
	}
	err := c.call(ctx, "serviceability", http.MethodGet, "/v1/external/courier/serviceability/?"+q.Encode(), nil, &out)
	if r := Refused(err); r != nil && r.Status == http.StatusNotFound {
		return Serviceability{}, nil
	}
	if err != nil {
		return Serviceability{}, err
	}
	var s Serviceability
	for _, co := range out.Data.Companies {
		d, _ := strconv.Atoi(co.EstimatedDays)
		if !s.Serviceable || d < s.MinDays {
			s.MinDays = d
		}
		if d > s.MaxDays {
			s.MaxDays = d
		}
		s.Serviceable = true
		s.COD = s.COD || co.COD == 1
	}
	return s, nil
}

// orderShipments is an order as GET /v1/external/orders lists it.
type orderShipments struct {
	ID             json.Number `json:"id"`
	ChannelOrderID string      `json:"channel_order_id"`
	Shipments      []struct {
		ID      json.Number `json:"id"`
		AWB     string      `json:"awb"`
		Courier string      `json:"courier"`
	} `json:"shipments"`
}

// FindOrder is GET /v1/external/orders?search=: the order whose
// channel_order_id is ours.
func (c *ShiprocketClient) FindOrder(ctx context.Context, channelOrderID string) (*Booked, error) {
	var out struct {
		Data []orderShipments `json:"data"`
	}
	q := url.Values{"search": {channelOrderID}}
	if err := c.call(ctx, "find_order", http.MethodGet, "/v1/external/orders?"+q.Encode(), nil, &out); err != nil {
		return nil, err
	}
	for _, o := range out.Data {
		if o.ChannelOrderID != channelOrderID || len(o.Shipments) == 0 {
			continue
		}
		s := o.Shipments[0]
		return &Booked{OrderID: o.ID.String(), ShipmentID: s.ID.String(), AWB: s.AWB, CourierName: s.Courier}, nil
	}
	return nil, nil
}

// rupees writes paise as rupees for the courier's decimal fields.
func rupees(p int64) string { return fmt.Sprintf("%d.%02d", p/100, p%100) }

// CreateOrder is POST /v1/external/orders/create/adhoc.
func (c *ShiprocketClient) CreateOrder(ctx context.Context, p Parcel) (Booked, error) {
	items := make([]map[string]any, len(p.Items))
	for i, it := range p.Items {
		items[i] = map[string]any{"name": it.Name, "sku": it.SKU, "units": it.Units, "selling_price": rupees(it.Price)}
	}
	method := "Prepaid"
	if p.COD {
		method = "COD"
	}
	first, last, _ := strings.Cut(p.Name, " ")
	in := map[string]any{
		"order_id": p.ChannelOrderID, "order_date": p.OrderDate.In(ist).Format("2006-01-02 15:04"),
		"pickup_location": p.PickupLocation, "billing_customer_name": first, "billing_last_name": last,
		"billing_address": p.Address, "billing_city": p.City, "billing_pincode": p.Pincode, "billing_state": p.State,
		"billing_country": "India", "billing_email": p.Email, "billing_phone": p.Phone, "shipping_is_billing": true,
		"order_items": items, "payment_method": method, "sub_total": rupees(p.SubTotal),
		"length": 10, "breadth": 10, "height": 10, "weight": p.WeightKg,
	}
	var out struct {
		OrderID     json.Number `json:"order_id"`
		ShipmentID  json.Number `json:"shipment_id"`
		AWBCode     string      `json:"awb_code"`
		CourierName string      `json:"courier_name"`
	}
	if err := c.call(ctx, "create_order", http.MethodPost, "/v1/external/orders/create/adhoc", in, &out); err != nil {
		return Booked{}, err
	}
	if out.OrderID == "" || out.ShipmentID == "" {
		return Booked{}, fmt.Errorf("courier.create_order: no order or shipment id in the answer")
	}
	return Booked{OrderID: out.OrderID.String(), ShipmentID: out.ShipmentID.String(), AWB: out.AWBCode, CourierName: out.CourierName}, nil
}

// AssignAWB is POST /v1/external/courier/assign/awb.
func (c *ShiprocketClient) AssignAWB(ctx context.Context, shipmentID string) (AWB, error) {
	var out struct {
		Status   int `json:"awb_assign_status"`
		Response struct {
			Data struct {
				AWBCode     string `json:"awb_code"`
				CourierName string `json:"courier_name"`
			} `json:"data"`
		} `json:"response"`
	}
	if err := c.call(ctx, "assign_awb", http.MethodPost, "/v1/external/courier/assign/awb",
		map[string]any{"shipment_id": shipmentID}, &out); err != nil {
		return AWB{}, err
	}
	if out.Status != 1 || out.Response.Data.AWBCode == "" {
		return AWB{}, &Refusal{Status: http.StatusUnprocessableEntity, Message: "no AWB was assigned"}
	}
	return AWB{Code: out.Response.Data.AWBCode, CourierName: out.Response.Data.CourierName}, nil
}

// ist is the courier's clock: Shiprocket writes India's time without a zone.
var ist = time.FixedZone("IST", 5*3600+1800)

// SchedulePickup is POST /v1/external/courier/generate/pickup.
func (c *ShiprocketClient) SchedulePickup(ctx context.Context, shipmentIDs []string) (time.Time, error) {
	var out struct {
		Status   int `json:"pickup_status"`
		Response struct {
			Date string `json:"pickup_scheduled_date"`
		} `json:"response"`
	}
	if err := c.call(ctx, "pickup", http.MethodPost, "/v1/external/courier/generate/pickup",
		map[string]any{"shipment_id": shipmentIDs}, &out); err != nil {
		return time.Time{}, err
	}
	at, err := time.ParseInLocation("2006-01-02 15:04:05", out.Response.Date, ist)
	if out.Status != 1 || err != nil {
		return time.Time{}, fmt.Errorf("courier.pickup: no pickup date in the answer")
	}
	return at.UTC(), nil
}

// Label is POST /v1/external/courier/generate/label.
func (c *ShiprocketClient) Label(ctx context.Context, shipmentIDs []string) (string, error) {
	var out struct {
		Created  int    `json:"label_created"`
		LabelURL string `json:"label_url"`
	}
	if err := c.call(ctx, "label", http.MethodPost, "/v1/external/courier/generate/label",
		map[string]any{"shipment_id": shipmentIDs}, &out); err != nil {
		return "", err
	}
	if out.Created != 1 || out.LabelURL == "" {
		return "", &Refusal{Status: http.StatusUnprocessableEntity, Message: "no label was made"}
	}
	return out.LabelURL, nil
}

// Manifest is POST /v1/external/manifests/generate.
func (c *ShiprocketClient) Manifest(ctx context.Context, shipmentIDs []string) (string, error) {
	var out struct {
		Status      int    `json:"status"`
		ManifestURL string `json:"manifest_url"`
	}
	if err := c.call(ctx, "manifest", http.MethodPost, "/v1/external/manifests/generate",
		map[string]any{"shipment_id": shipmentIDs}, &out); err != nil {
		return "", err
	}
	if out.ManifestURL == "" {
		return "", &Refusal{Status: http.StatusUnprocessableEntity, Message: "no manifest was made"}
	}
	return out.ManifestURL, nil
}

// Download reads a document the courier made (a label's or manifest's
// URL), at most 20 MiB.
func (c *ShiprocketClient) Download(ctx context.Context, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("courier.download: %w", err)
	}
	resp, err := c.cfg.Client.Do(req)
	if err != nil {
		requests.WithLabelValues("download", "error").Inc()
		return nil, fmt.Errorf("courier.download: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		requests.WithLabelValues("download", "error").Inc()
		return nil, fmt.Errorf("courier.download: the courier answered %d", resp.StatusCode)
	}
	requests.WithLabelValues("download", "ok").Inc()
	return io.ReadAll(io.LimitReader(resp.Body, 20<<20))
}

// NDRAction is POST /v1/external/ndr/{awb}/action: "re-attempt" (with a
// deferred date, a phone or an address when given) or "return".
func (c *ShiprocketClient) NDRAction(ctx context.Context, awb string, a NDRAction) error {
	in := map[string]any{"comments": a.Comment}
	switch a.Action {
	case NDRReattempt:
		in["action"] = "re-attempt"
		if a.Date != "" {
			in["deferred_date"] = a.Date
		}
		if a.Phone != "" {
			in["phone"] = a.Phone
		}
		if a.Address != "" {
			in["address1"] = a.Address
		}
	default:
		in["action"] = "return"
	}
	return c.call(ctx, "ndr_action", http.MethodPost, "/v1/external/ndr/"+url.PathEscape(awb)+"/action", in, nil)
}
