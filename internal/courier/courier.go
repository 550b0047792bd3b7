// Package courier is the courier the shop hands its parcels to
// (docs/DECISIONS.md "Couriers"): one interface, Courier, declared for the
// services that book, label, pick up and track shipments, and its
// implementations: Manual (no courier: staff type tracking numbers, the
// default), Shiprocket (its public API v1, external) and the simulator (the
// same client pointed at `shop carrier-sim`, package shiprockettest).
// FromConfig picks one; no service checks which one it got, only whether
// one is configured (Configured).
package courier

import (
	"context"
	"errors"
	"time"
)

// Names of the implementations (CARRIER).
const (
	Manual     = "manual"
	Shiprocket = "shiprocket"
	Simulator  = "simulator"
)

// ErrNotConfigured is the error of every call to the manual courier: there
// is no courier to ask.
var ErrNotConfigured = errors.New("courier: no courier is configured (CARRIER=manual)")

// Courier is a courier aggregator's API as the shop uses it. Every call has
// a timeout; a refusal of the courier's is a *Refusal, anything else
// (network, 5xx) is worth retrying.
type Courier interface {
	// Name is the implementation's name (CARRIER).
	Name() string
	// Serviceability tells whether the courier delivers from pincode from
	// to pincode to, and collects cash there.
	Serviceability(ctx context.Context, from, to string) (Serviceability, error)
	// FindOrder finds the courier's order made for channelOrderID (ours);
	// nil when it has none.
	FindOrder(ctx context.Context, channelOrderID string) (*Booked, error)
	// CreateOrder creates the courier's order of a parcel.
	CreateOrder(ctx context.Context, p Parcel) (Booked, error)
	// AssignAWB asks an AWB (tracking number) for a shipment.
	AssignAWB(ctx context.Context, shipmentID string) (AWB, error)
	// SchedulePickup asks the courier to collect shipments; it answers the
	// pickup's date.
	SchedulePickup(ctx context.Context, shipmentIDs []string) (time.Time, error)
	// Label has the labels of shipments made into one PDF; it answers its URL.
	Label(ctx context.Context, shipmentIDs []string) (string, error)
	// Manifest has the manifest of shipments made; it answers its URL.
	Manifest(ctx context.Context, shipmentIDs []string) (string, error)
	// Download reads a document (a label, a manifest) the courier made.
	Download(ctx context.Context, url string) ([]byte, error)
	// NDRAction sends the shop's decision on a failed delivery of awb.
	NDRAction(ctx context.Context, awb string, a NDRAction) error
}

// Configured reports whether c is a courier to book with (not Manual).
func Configured(c Courier) bool { return c != nil && c.Name() != Manual }

// Serviceability is the courier's answer for a pair of pincodes.
type Serviceability struct {
	Serviceable bool
	COD         bool
	MinDays     int
	MaxDays     int
}

// CODAllowed reports whether the courier can collect cash for this answer;
// the zero answer (no courier asked) allows it. Package cod calls it
// (ReasonPincode).
func (s *Serviceability) CODAllowed() bool { return s == nil || s.COD }

// Parcel is what the courier is asked to carry.
type Parcel struct {
	ChannelOrderID string
	OrderDate      time.Time
	PickupLocation string
	Name           string
	Address        string
	City           string
	State          string
	Pincode        string
	Email          string
	Phone          string
	COD            bool
	// SubTotal is what the courier collects (COD) or declares, in paise.
	SubTotal int64
	Items    []ParcelItem
	// WeightKg is the dead weight, kg.
	WeightKg float64
}

// ParcelItem is one line of a parcel.
type ParcelItem struct {
	Name  string
	SKU   string
	Units int
	// Price is the unit price in paise.
	Price int64
}

// Booked is the courier's order of a parcel.
type Booked struct {
	OrderID    string
	ShipmentID string
	// AWB is set when the courier already assigned one.
	AWB         string
	CourierName string
}

// AWB is an assigned air waybill.
type AWB struct {
	Code        string
	CourierName string
}

// NDR actions (the shop's decision on a failed delivery).
const (
	NDRReattempt = "reattempt"
	NDRReturn    = "return"
)

// NDRAction is the decision on a failed delivery.
type NDRAction struct {
	Action  string
	Date    string
	Phone   string
	Address string
	Comment string
}

// Refusal is the courier refusing a call (a 4xx answer): retrying it as it
// is changes nothing.
type Refusal struct {
	Status  int
	Message string
}

func (r *Refusal) Error() string { return "courier refused: " + r.Message }

// Refused returns the refusal in err, nil when err is not one.
func Refused(err error) *Refusal {
	var r *Refusal
	if errors.As(err, &r) {
		return r
	}
	return nil
}

// manual is CARRIER=manual: no courier.
type manual struct{}

// NewManual returns the manual courier.
func NewManual() Courier { return manual{} }

func (manual) Name() string { return Manual }
func (manual) Serviceability(context.Context, string, string) (Serviceability, error) {
	return Serviceability{}, ErrNotConfigured
}
func (manual) FindOrder(context.Context, string) (*Booked, error)  { return nil, ErrNotConfigured }
func (manual) CreateOrder(context.Context, Parcel) (Booked, error) { return Booked{}, ErrNotConfigured }
func (manual) AssignAWB(context.Context, string) (AWB, error)      { return AWB{}, ErrNotConfigured }
func (manual) SchedulePickup(context.Context, []string) (time.Time, error) {
	return time.Time{}, ErrNotConfigured
}
func (manual) Label(context.Context, []string) (string, error)    { return "", ErrNotConfigured }
func (manual) Manifest(context.Context, []string) (string, error) { return "", ErrNotConfigured }
func (manual) Download(context.Context, string) ([]byte, error)   { return nil, ErrNotConfigured }
func (manual) NDRAction(context.Context, string, NDRAction) error { return ErrNotConfigured }
