// Package gstportal is the shop's side of the GST portals: the Invoice
// Registration Portal (e-invoices, IRN) and the e-way bill system. One
// Provider interface; `none` reports nothing, `nic` speaks the NIC APIs
// (v1.03) and `simulator` is the same adapter pointed at `shop gst-sim`
// (package gstsim), a local IRP.
package gstportal

import (
	"context"
	"crypto/rsa"
	"errors"
	"fmt"
	"time"
)

// Provider names (GST_PROVIDER).
const (
	None      = "none"
	NICName   = "nic"
	Simulator = "simulator"
)

// Error codes of the IRP the shop acts on.
const (
	// CodeDuplicateIRN: the document was reported before; the answer names
	// the IRN it got (Duplicate).
	CodeDuplicateIRN = "2150"
	// CodeSchema: the payload does not follow the e-invoice schema.
	CodeSchema = "5002"
	// CodeInvalidGSTIN: a GSTIN whose check character or state is wrong.
	CodeInvalidGSTIN = "3028"
)

// ErrDisabled is the answer of the `none` provider: no GST portal is
// configured.
var ErrDisabled = errors.New("gstportal: no GST provider configured (GST_PROVIDER=none)")

// ErrUnavailable wraps every failure to reach the portal or read its
// answer: the outcome is unknown, the caller retries (a duplicate answer
// then recovers a report that was made).
var ErrUnavailable = errors.New("gstportal: portal unavailable")

// Error is the portal refusing a request (Status 0 with ErrorDetails): it
// will not change by itself, except a duplicate, which names what the
// portal holds.
type Error struct {
	Code    string
	Message string
	// Duplicate is the IRN the portal gave the document before (2150).
	Duplicate *Ack
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Refusal returns err's portal refusal, if it is one.
func Refusal(err error) (*Error, bool) {
	var pe *Error
	ok := errors.As(err, &pe)
	return pe, ok
}

// Ack is what the IRP answers a registered document with.
type Ack struct {
	Irn   string `json:"Irn"`
	AckNo int64  `json:"AckNo"`
	// AckDt is "2006-01-02 15:04:05" in India Standard Time.
	AckDt string `json:"AckDt"`
}

// IRN is a registered e-invoice: its acknowledgement and the two JWTs the
// IRP signed (RS256).
type IRN struct {
	Ack
	SignedInvoice string `json:"SignedInvoice"`
	SignedQRCode  string `json:"SignedQRCode"`
	Status        string `json:"Status"`
}

// EwayBill is a generated e-way bill.
type EwayBill struct {
	Number int64
	// Date is when it was generated; ValidUntil the end of its validity.
	Date, ValidUntil time.Time
	// DistanceKm is the distance the bill was made for: the one given, or
	// the portal's from the pincodes.
	DistanceKm int
}

// Transport is how an e-way bill's goods travel: by road with VehicleNumber,
// or handed to the transporter TransporterID (a GSTIN or TRANSIN); Distance
// 0 asks the portal to take it from the pincodes.
type Transport struct {
	VehicleNumber string
	TransporterID string
	DistanceKm    int
}

// Provider reports documents to the GST portals. Every method answers
// ErrDisabled (none), ErrUnavailable (unreachable, outcome unknown) or a
// *Error (the portal's refusal).
type Provider interface {
	Name() string
	// GenerateIRN registers inv. A document reported before is *Error with
	// CodeDuplicateIRN and Duplicate set.
	GenerateIRN(ctx context.Context, inv *Invoice) (*IRN, error)
	// IRNByDocument returns the e-invoice the IRP holds for the document of
	// supplier gstin of type typ (INV, CRN), number no and date
	// (dd/mm/yyyy).
	IRNByDocument(ctx context.Context, gstin, typ, no, date string) (*IRN, error)
	// EwayBillByIRN generates the e-way bill of supplier gstin's e-invoice
	// irn.
	EwayBillByIRN(ctx context.Context, gstin, irn string, t Transport) (*EwayBill, error)
	// EwayBill generates an e-way bill from its own request (a document
	// without an IRN).
	EwayBill(ctx context.Context, req *EwbRequest) (*EwayBill, error)
	// PublicKey is the key the portal signs with: GST_IRP_PUBLIC_KEY, or
	// the simulator's GET /sim/key.
	PublicKey(ctx context.Context) (*rsa.PublicKey, error)
}

// none is the provider of a store that reports nothing.
type none struct{}

// NewNone returns the `none` provider.
func NewNone() Provider { return none{} }

func (none) Name() string { return None }
func (none) GenerateIRN(context.Context, *Invoice) (*IRN, error) {
	return nil, ErrDisabled
}
func (none) IRNByDocument(context.Context, string, string, string, string) (*IRN, error) {
	return nil, ErrDisabled
}
func (none) EwayBillByIRN(context.Context, string, string, Transport) (*EwayBill, error) {
	return nil, ErrDisabled
}
func (none) EwayBill(context.Context, *EwbRequest) (*EwayBill, error) { return nil, ErrDisabled }
func (none) PublicKey(context.Context) (*rsa.PublicKey, error)        { return nil, ErrDisabled }

func unavailable(op string, err error) error {
	return fmt.Errorf("gstportal.%s: %w: %v", op, ErrUnavailable, err)
}
