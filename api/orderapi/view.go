package orderapi

import (
	"encoding/json"
	"time"

	"github.com/gocommerce/shop/api/fulfillmentapi"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/shipping"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

type summaryView struct {
	ID            string       `json:"id"`
	OrderNumber   string       `json:"orderNumber"`
	Status        string       `json:"status"`
	PaymentStatus string       `json:"paymentStatus"`
	PaymentMethod string       `json:"paymentMethod"`
	CustomerID    string       `json:"customerId"`
	Email         string       `json:"email"`
	Name          string       `json:"name"`
	ItemCount     int          `json:"itemCount"`
	Total         money.Amount `json:"total"`
	PaidTotal     money.Amount `json:"paidTotal"`
	RefundedTotal money.Amount `json:"refundedTotal"`
	Currency      string       `json:"currency"`
	CreatedAt     string       `json:"createdAt"`
}

func newSummaryView(s order.Summary) summaryView {
	return summaryView{
		ID: s.ID.String(), OrderNumber: s.OrderNumber, Status: s.Status, PaymentStatus: s.PaymentStatus,
		PaymentMethod: s.PaymentMethod, CustomerID: s.CustomerID.String(), Email: s.Email, Name: s.Name, ItemCount: s.ItemCount,
		Total: s.Total, PaidTotal: s.PaidTotal, RefundedTotal: s.RefundedTotal, Currency: s.Currency,
		CreatedAt: httpx.Timestamp(s.CreatedAt),
	}
}

type taxView struct {
	CGST money.Amount `json:"cgst"`
	SGST money.Amount `json:"sgst"`
	IGST money.Amount `json:"igst"`
	// Cess is the compensation cess, a tax apart from the GST above.
	Cess money.Amount `json:"cess"`
}

type paymentView struct {
	ID              string       `json:"id"`
	Provider        string       `json:"provider"`
	PaymentIntentID string       `json:"paymentIntentId"`
	PaymentID       string       `json:"paymentId"`
	Amount          money.Amount `json:"amount"`
	Currency        string       `json:"currency"`
	Method          string       `json:"method"`
	Status          string       `json:"status"`
	CreatedAt       string       `json:"createdAt"`
	// Reference and CollectedAt: money recorded by staff (provider offline).
	Reference   string  `json:"reference"`
	CollectedAt *string `json:"collectedAt"`
}

type refundView struct {
	ID               string       `json:"id"`
	OrderID          string       `json:"orderId"`
	Amount           money.Amount `json:"amount"`
	Reason           string       `json:"reason"`
	Status           string       `json:"status"`
	ProviderRefundID *string      `json:"providerRefundId"`
	AdminID          *string      `json:"adminId"`
	CreatedAt        string       `json:"createdAt"`
	// Method is gateway, recorded or manual; Reference a manual refund's.
	Method    string  `json:"method"`
	Reference *string `json:"reference"`
}

type historyView struct {
	FromStatus *string `json:"fromStatus"`
	ToStatus   string  `json:"toStatus"`
	Note       string  `json:"note"`
	AdminID    *string `json:"adminId"`
	CreatedAt  string  `json:"createdAt"`
}

// editView is an applied edit of the order: the lines it changed, before
// and after, and what it did to the money.
type editView struct {
	ID            string          `json:"id"`
	Note          string          `json:"note"`
	Lines         json.RawMessage `json:"lines"`
	PreviousTotal money.Amount    `json:"previousTotal"`
	NewTotal      money.Amount    `json:"newTotal"`
	Difference    money.Amount    `json:"difference"`
	RefundAmount  money.Amount    `json:"refundAmount"`
	BalanceDue    money.Amount    `json:"balanceDue"`
	AdminID       *string         `json:"adminId"`
	CreatedAt     string          `json:"createdAt"`
}

// paymentLinkView is a payment link for a balance an edit left owed.
type paymentLinkView struct {
	ID        *string      `json:"id"`
	URL       *string      `json:"url"`
	Amount    money.Amount `json:"amount"`
	Status    string       `json:"status"`
	ExpiresAt string       `json:"expiresAt"`
	CreatedAt string       `json:"createdAt"`
}

func newPaymentLinkView(l models.OrderPaymentLink) paymentLinkView {
	return paymentLinkView{ID: l.LinkID, URL: l.URL, Amount: l.Amount, Status: l.Status,
		ExpiresAt: httpx.Timestamp(l.ExpiresAt), CreatedAt: httpx.Timestamp(l.CreatedAt)}
}

type detailView struct {
	ID            string `json:"id"`
	OrderNumber   string `json:"orderNumber"`
	Status        string `json:"status"`
	PaymentStatus string `json:"paymentStatus"`
	// FulfillmentStatus and Fulfillments: docs/DECISIONS.md "Fulfilment".
	FulfillmentStatus string                `json:"fulfillmentStatus"`
	Fulfillments      []fulfillmentapi.View `json:"fulfillments"`
	CustomerID        string                `json:"customerId"`
	Email             string                `json:"email"`
	Name              string                `json:"name"`
	Phone             string                `json:"phone"`
	Items             []order.Line          `json:"items"`
	Subtotal          money.Amount          `json:"subtotal"`
	DiscountTotal     money.Amount          `json:"discountTotal"`
	DiscountCode      *string               `json:"discountCode"`
	// Discounts are every discount the order applied.
	Discounts []models.AppliedDiscount `json:"discounts"`
	TaxTotal  money.Amount             `json:"taxTotal"`
	Tax       taxView                  `json:"tax"`
	// TaxSplit is the GST as the issued invoices divide it once any exist
	// (invoice.TaxSplit), else as Tax.
	TaxSplit       invoice.TaxSplit `json:"taxSplit"`
	ShippingCost   money.Amount     `json:"shippingCost"`
	ShippingMethod *shipping.Ref    `json:"shippingMethod"`
	Total          money.Amount     `json:"total"`
	PaidTotal      money.Amount     `json:"paidTotal"`
	RefundedTotal  money.Amount     `json:"refundedTotal"`
	// BalanceDue is what an edit that raised the total left owed.
	BalanceDue      money.Amount      `json:"balanceDue"`
	Currency        string            `json:"currency"`
	ShippingAddress json.RawMessage   `json:"shippingAddress"`
	BillingAddress  json.RawMessage   `json:"billingAddress"`
	PaymentProvider string            `json:"paymentProvider"`
	PaymentMethod   string            `json:"paymentMethod"`
	CODFee          money.Amount      `json:"codFee"`
	PaymentIntentID string            `json:"paymentIntentId"`
	Payments        []paymentView     `json:"payments"`
	Refunds         []refundView      `json:"refunds"`
	History         []historyView     `json:"history"`
	Edits           []editView        `json:"edits"`
	PaymentLinks    []paymentLinkView `json:"paymentLinks"`
	CreatedAt       string            `json:"createdAt"`
	UpdatedAt       string            `json:"updatedAt"`

	// BuyerGSTIN and BuyerName: the B2B buyer given at checkout.
	BuyerGSTIN *string `json:"buyerGstin"`
	BuyerName  string  `json:"buyerName"`

	// TaxDocuments are its invoices and credit notes, newest first; nil
	// (null) for a role that may not read tax documents.
	TaxDocuments []taxDocumentView `json:"taxDocuments"`
}

// timestampPtr renders an optional time; nil stays null.
func timestampPtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := httpx.Timestamp(*t)
	return &s
}

// uuidPtr renders an optional id; nil stays null.
func uuidPtr(id *uuid.UUID) *string {
	if id == nil {
		return nil
	}
	s := id.String()
	return &s
}

func rawJSON(b []byte) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("null")
	}
	return json.RawMessage(b)
}

func newDetailView(d *order.Detail, fs []models.Fulfillment) detailView {
	o := d.Order
	v := detailView{
		ID: o.ID.String(), OrderNumber: o.OrderNumber, Status: o.Status, PaymentStatus: o.PaymentStatus,
		FulfillmentStatus: o.FulfillmentStatus, Fulfillments: fulfillmentapi.Views(fs),
		CustomerID: o.CustomerID.String(), Email: o.Email, Name: o.Name, Phone: o.Phone,
		Subtotal: o.Subtotal, DiscountTotal: o.DiscountTotal, DiscountCode: o.DiscountCode, Discounts: o.AppliedDiscounts.OrEmpty(),
		TaxTotal: o.TaxTotal, Tax: taxView{CGST: o.CGSTTotal, SGST: o.SGSTTotal, IGST: o.IGSTTotal, Cess: o.CessTotal},
		ShippingCost: o.ShippingCost, ShippingMethod: shipping.RefOf(o.ShippingChoice), Total: o.Total, PaidTotal: o.PaidTotal, RefundedTotal: o.RefundedTotal,
		BalanceDue: o.BalanceDue, Edits: make([]editView, 0, len(d.Edits)), PaymentLinks: make([]paymentLinkView, 0, len(d.Links)),
		Currency: o.Currency, ShippingAddress: rawJSON(o.ShippingAddress), BillingAddress: rawJSON(o.BillingAddress),
		BuyerGSTIN: o.BuyerGSTIN, BuyerName: o.BuyerName,
		PaymentProvider: o.PaymentProvider, PaymentIntentID: o.PaymentIntentID, PaymentMethod: o.PaymentMethod, CODFee: o.CODFee,
		Items: order.Lines(o.Items), Payments: make([]paymentView, 0, len(d.Payments)),
		Refunds: make([]refundView, 0, len(d.Refunds)), History: make([]historyView, 0, len(d.History)),
		CreatedAt: httpx.Timestamp(o.CreatedAt), UpdatedAt: httpx.Timestamp(o.UpdatedAt),
	}
	for _, p := range d.Payments {
		v.Payments = append(v.Payments, paymentView{ID: p.ID.String(), Provider: p.Provider,
			PaymentIntentID: p.PaymentIntentID, PaymentID: p.PaymentID, Amount: p.Amount, Currency: p.Currency,
			Method: p.Method, Status: p.Status, CreatedAt: httpx.Timestamp(p.CreatedAt), Reference: p.Reference,
			CollectedAt: timestampPtr(p.CollectedAt)})
	}
	for _, r := range d.Refunds {
		v.Refunds = append(v.Refunds, newRefundView(r))
	}
	for _, e := range d.Edits {
		v.Edits = append(v.Edits, editView{ID: e.ID.String(), Note: e.Note, Lines: rawJSON(e.Lines), PreviousTotal: e.PreviousTotal,
			NewTotal: e.NewTotal, Difference: e.Difference, RefundAmount: e.RefundAmount, BalanceDue: e.BalanceDue,
			AdminID: uuidPtr(e.AdminID), CreatedAt: httpx.Timestamp(e.CreatedAt)})
	}
	for _, l := range d.Links {
		v.PaymentLinks = append(v.PaymentLinks, newPaymentLinkView(l))
	}
	for _, h := range d.History {
		v.History = append(v.History, historyView{FromStatus: h.FromStatus, ToStatus: h.ToStatus, Note: h.Note,
			AdminID: uuidPtr(h.AdminID), CreatedAt: httpx.Timestamp(h.CreatedAt)})
	}
	return v
}

func newRefundView(r models.Refund) refundView {
	return refundView{ID: r.ID.String(), OrderID: r.OrderID.String(), Amount: r.Amount, Reason: r.Reason,
		Status: r.Status, ProviderRefundID: r.ProviderRefundID, AdminID: uuidPtr(r.AdminID), CreatedAt: httpx.Timestamp(r.CreatedAt),
		Method: r.Method, Reference: r.Reference}
}
