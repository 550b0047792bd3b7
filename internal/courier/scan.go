package courier

import (
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// The shipment statuses every courier's scan is normalised to
// (docs/DECISIONS.md "Couriers"); pending and failed are the shop's own
// (not booked yet; the courier refused the booking).
const (
	StatusPending        = "pending"
	StatusFailed         = "failed"
	StatusBooked         = "booked"
	StatusPickedUp       = "picked_up"
	StatusInTransit      = "in_transit"
	StatusOutForDelivery = "out_for_delivery"
	StatusDelivered      = "delivered"
	StatusUndelivered    = "undelivered"
	StatusRTOInitiated   = "rto_initiated"
	StatusRTOInTransit   = "rto_in_transit"
	StatusRTODelivered   = "rto_delivered"
	StatusLost           = "lost"
)

// ScanStatuses are the statuses a scan may carry.
var ScanStatuses = []string{StatusBooked, StatusPickedUp, StatusInTransit, StatusOutForDelivery, StatusDelivered,
	StatusUndelivered, StatusRTOInitiated, StatusRTOInTransit, StatusRTODelivered, StatusLost}

// labels maps Shiprocket's status labels (current_status) to ours.
var labels = map[string]string{
	"AWB ASSIGNED": StatusBooked, "PICKUP SCHEDULED": StatusBooked, "PICKUP GENERATED": StatusBooked,
	"MANIFEST GENERATED": StatusBooked, "PICKUP QUEUED": StatusBooked, "BOOKED": StatusBooked,
	"PICKED UP": StatusPickedUp, "SHIPPED": StatusInTransit, "IN TRANSIT": StatusInTransit,
	"REACHED AT DESTINATION HUB": StatusInTransit, "OUT FOR DELIVERY": StatusOutForDelivery,
	"DELIVERED": StatusDelivered, "UNDELIVERED": StatusUndelivered, "RTO INITIATED": StatusRTOInitiated,
	"RTO IN TRANSIT": StatusRTOInTransit, "RTO DELIVERED": StatusRTODelivered, "LOST": StatusLost,
}

// Normalize maps a courier's status label to ours; "" when unknown.
func Normalize(label string) string {
	l := strings.ToUpper(strings.TrimSpace(strings.ReplaceAll(label, "_", " ")))
	return labels[l]
}

// Label is the Shiprocket label of one of our statuses (the simulator's
// scans).
func Label(status string) string { return strings.ToUpper(strings.ReplaceAll(status, "_", " ")) }

// rank orders the statuses: a scan never moves a shipment to a lower rank.
var rank = map[string]int{
	StatusPending: 0, StatusFailed: 0, StatusBooked: 1, StatusPickedUp: 2, StatusInTransit: 3, StatusOutForDelivery: 4,
	StatusUndelivered: 4, StatusRTOInitiated: 6, StatusRTOInTransit: 7,
	StatusDelivered: 10, StatusRTODelivered: 10, StatusLost: 10,
}

// delivering is the cycle of delivery attempts: an undelivered parcel goes
// out for delivery again.
var delivering = map[string]bool{StatusInTransit: true, StatusOutForDelivery: true, StatusUndelivered: true}

// Advances reports whether a scan of status next, at next time, moves a
// shipment that is in cur since last: never back (a lower rank), never
// out of a final status, never with a scan older than the last applied;
// within the cycle of delivery attempts, a later scan moves it either way.
func Advances(cur string, last *time.Time, next string, at time.Time) bool {
	if rank[cur] >= 10 || (last != nil && at.Before(*last)) {
		return false
	}
	if delivering[cur] && delivering[next] {
		return next != cur || last == nil || at.After(*last)
	}
	return rank[next] > rank[cur]
}

// Scan is one tracking update, normalised.
type Scan struct {
	AWB      string
	Status   string
	At       time.Time
	Location string
	Remark   string
	// Label is the courier's own status label.
	Label string
}

// ErrUnknownStatus is a scan whose status no normalised status matches.
var ErrUnknownStatus = errors.New("courier: unknown status")

// webhookBody is Shiprocket's tracking webhook.
type webhookBody struct {
	AWB           json.RawMessage `json:"awb"`
	CurrentStatus string          `json:"current_status"`
	ShipmentStat  string          `json:"shipment_status"`
	Timestamp     string          `json:"current_timestamp"`
	Scans         []struct {
		Date     string `json:"date"`
		Activity string `json:"activity"`
		Location string `json:"location"`
	} `json:"scans"`
}

// ParseWebhook reads a tracking webhook in Shiprocket's shape: the AWB, the
// current status and its time (India's, written "02 01 2006 15:04:05"), and
// the latest scan's place and activity (an NDR's reason).
func ParseWebhook(raw []byte) (Scan, error) {
	var b webhookBody
	if err := json.Unmarshal(raw, &b); err != nil {
		return Scan{}, err
	}
	var awb string
	if err := json.Unmarshal(b.AWB, &awb); err != nil {
		var n json.Number
		if err := json.Unmarshal(b.AWB, &n); err != nil {
			return Scan{}, errors.New("courier: awb missing")
		}
		awb = n.String()
	}
	s := Scan{AWB: strings.TrimSpace(awb), Label: b.CurrentStatus}
	if s.AWB == "" {
		return Scan{}, errors.New("courier: awb missing")
	}
	if s.Status = Normalize(b.CurrentStatus); s.Status == "" {
		if s.Status = Normalize(b.ShipmentStat); s.Status == "" {
			return s, ErrUnknownStatus
		}
	}
	at, err := parseTime(b.Timestamp)
	if err != nil {
		return Scan{}, errors.New("courier: current_timestamp is not a time")
	}
	s.At = at
	if n := len(b.Scans); n > 0 {
		s.Location, s.Remark = b.Scans[n-1].Location, b.Scans[n-1].Activity
	}
	return s, nil
}

// parseTime reads the courier's times, India's time without a zone.
func parseTime(v string) (time.Time, error) {
	for _, layout := range []string{"02 01 2006 15:04:05", "2006-01-02 15:04:05"} {
		if t, err := time.ParseInLocation(layout, strings.TrimSpace(v), ist); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, errors.New("courier: not a time")
}

// Webhook builds a tracking webhook in Shiprocket's shape (the simulator's).
func Webhook(s Scan, channelOrderID, courierName string) []byte {
	at := s.At.In(ist)
	b, _ := json.Marshal(map[string]any{
		"awb": s.AWB, "courier_name": courierName, "current_status": Label(s.Status), "shipment_status": Label(s.Status),
		"current_timestamp": at.Format("02 01 2006 15:04:05"), "order_id": channelOrderID, "is_return": 0,
		"scans": []map[string]string{{"date": at.Format("2006-01-02 15:04:05"), "activity": s.Remark, "location": s.Location,
			"sr-status-label": Label(s.Status)}},
	})
	return b
}
