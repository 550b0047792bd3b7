package draft

import (
	"encoding/json"
	"time"

	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Draft statuses, derived from the draft and its payment link's session.
const (
	// StatusOpen: staff may change it, and complete it.
	StatusOpen = "open"
	// StatusAwaitingPayment: a payment link holds its stock; it cannot
	// change until the link is paid or expires.
	StatusAwaitingPayment = "awaiting_payment"
	// StatusCompleted: it became an order; it cannot change.
	StatusCompleted = "completed"
)

// Payment link statuses: the link's checkout session's state.
const (
	LinkPending  = "pending"
	LinkPaid     = "paid"
	LinkExpired  = "expired"
	LinkFailed   = "failed"
	LinkRefunded = "refunded_late"
)

// Line is a line of a draft as answered.
type Line struct {
	ID        *uuid.UUID `json:"id"`
	VariantID uuid.UUID  `json:"variantId"`
	ProductID uuid.UUID  `json:"productId"`
	BundleID  *uuid.UUID `json:"bundleId"`
	models.PricedLine
	// PriceOverridden is set when staff set the unit price; ListPrice is
	// the customer's effective price it replaced.
	PriceOverridden bool          `json:"priceOverridden"`
	ListPrice       *money.Amount `json:"listPrice"`
	// Issue says why the line cannot be sold as it is (a product off sale,
	// a bundle that changed); completing the draft is refused meanwhile.
	Issue string `json:"issue,omitempty"`
}

// PaymentLink is a draft's latest payment link.
type PaymentLink struct {
	ID        *string   `json:"id"`
	URL       *string   `json:"url"`
	ExpiresAt time.Time `json:"expiresAt"`
	Status    string    `json:"status"`
	// CheckoutSessionID is the link's checkout session (its review reason
	// says why a late payment was refunded).
	CheckoutSessionID uuid.UUID `json:"checkoutSessionId"`
}

// ShippingMethod names the method charged.
type ShippingMethod struct {
	ID      uuid.UUID `json:"id"`
	Name    string    `json:"name"`
	Carrier string    `json:"carrier"`
}

// Issue is a field of the draft that keeps it from being completed.
type Issue struct {
	Field string `json:"field"`
	Issue string `json:"issue"`
}

// View is a draft order as answered (docs/openapi.yaml, DraftOrder).
type View struct {
	ID               uuid.UUID       `json:"id"`
	Status           string          `json:"status"`
	CustomerID       uuid.UUID       `json:"customerId"`
	Email            string          `json:"email"`
	Name             string          `json:"name"`
	Phone            string          `json:"phone"`
	ShippingAddress  json.RawMessage `json:"shippingAddress"`
	BillingAddress   json.RawMessage `json:"billingAddress"`
	ShippingMethodID *uuid.UUID      `json:"shippingMethodId"`
	ShippingMethod   *ShippingMethod `json:"shippingMethod"`
	DiscountCode     *string         `json:"discountCode"`
	// DiscountMessage says why the code takes nothing off now.
	DiscountMessage *string `json:"discountMessage,omitempty"`
	// Discounts are the discounts applied (docs/DECISIONS.md "Promotions").
	Discounts     []models.AppliedDiscount `json:"discounts"`
	BuyerGSTIN    *string                  `json:"buyerGstin"`
	BuyerName     string                   `json:"buyerName"`
	Note          string                   `json:"note"`
	Items         []Line                   `json:"items"`
	Subtotal      money.Amount             `json:"subtotal"`
	DiscountTotal money.Amount             `json:"discountTotal"`
	TaxTotal      money.Amount             `json:"taxTotal"`
	CGSTTotal     money.Amount             `json:"cgstTotal"`
	SGSTTotal     money.Amount             `json:"sgstTotal"`
	IGSTTotal     money.Amount             `json:"igstTotal"`
	ShippingCost  money.Amount             `json:"shippingCost"`
	Total         money.Amount             `json:"total"`
	// CODTotal is Total with the COD fee: what completing the draft as
	// cash on delivery charges (docs/DECISIONS.md "Daily work").
	CODTotal    money.Amount `json:"codTotal"`
	Currency    string       `json:"currency"`
	Issues      []Issue      `json:"issues"`
	PaymentLink *PaymentLink `json:"paymentLink"`
	OrderID     *uuid.UUID   `json:"orderId"`
	CreatedAt   time.Time    `json:"createdAt"`
	UpdatedAt   time.Time    `json:"updatedAt"`
	priced      *priced      `json:"-"`
	session     *models.CheckoutSession
}

// frozen reports whether a session's snapshot, not today's prices, is what
// the draft costs: its link is payable, paid, or being refunded.
func frozen(sess *models.CheckoutSession) bool {
	return sess != nil && sess.State != models.CheckoutExpired && sess.State != models.CheckoutFailed
}

// linkStatus names the state of a link's session for staff.
func linkStatus(sess *models.CheckoutSession, now time.Time) string {
	switch sess.State {
	case models.CheckoutPending:
		if !sess.ExpiresAt.After(now) {
			return LinkExpired
		}
		return LinkPending
	case models.CheckoutCompleted:
		return LinkPaid
	case models.CheckoutExpired:
		return LinkExpired
	case models.CheckoutFailed:
		return LinkFailed
	}
	return LinkRefunded // REFUNDING, or NEEDS_REVIEW after a late payment
}

// view maps draft d, priced p (nil when its session's snapshot is what it
// costs), and its latest link session sess (nil: none) to the answer.
func (s *Service) view(d *models.DraftOrder, p *priced, sess *models.CheckoutSession) (*View, error) {
	v := &View{ID: d.ID, Status: StatusOpen, Discounts: []models.AppliedDiscount{}, CustomerID: d.CustomerID, Email: d.Email, Name: d.Name, Phone: d.Phone,
		ShippingAddress: json.RawMessage(d.ShippingAddress), BillingAddress: json.RawMessage(d.BillingAddress),
		ShippingMethodID: d.ShippingMethodID, DiscountCode: d.DiscountCode, BuyerGSTIN: d.BuyerGSTIN, BuyerName: d.BuyerName,
		Note: d.Note, Items: []Line{}, Issues: []Issue{}, Currency: s.set.Currency, OrderID: d.OrderID,
		CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt, priced: p, session: sess}
	if len(v.BillingAddress) == 0 {
		v.BillingAddress = json.RawMessage("null")
	}
	now := s.now()
	if sess != nil && sess.State == models.CheckoutCompleted {
		v.Status, v.OrderID = StatusCompleted, sess.OrderID
	}
	if sess != nil && sess.RefundLatePayment {
		v.PaymentLink = &PaymentLink{ID: sess.PaymentIntentID, URL: d.PaymentLinkURL, ExpiresAt: sess.ExpiresAt,
			Status: linkStatus(sess, now), CheckoutSessionID: sess.ID}
		switch {
		case sess.State == models.CheckoutCompleted:
			v.Status, v.OrderID = StatusCompleted, sess.OrderID
		case v.PaymentLink.Status == LinkPending:
			v.Status = StatusAwaitingPayment
		}
	}
	if d.OrderID != nil {
		v.Status = StatusCompleted
	}
	if p == nil {
		if err := s.snapshotInto(v, sess); err != nil {
			return nil, err
		}
		if sess.PaymentProvider == checkout.ProviderCOD {
			v.CODTotal = v.Total // completed as COD: the fee is in it
			return v, nil
		}
		return v, s.withCODTotal(v)
	}
	v.Subtotal, v.DiscountTotal, v.TaxTotal, v.ShippingCost, v.Total = p.Subtotal, p.DiscountTotal, p.TaxTotal, p.ShippingCost, p.Total
	v.CGSTTotal, v.SGSTTotal, v.IGSTTotal = p.CGST, p.SGST, p.IGST
	v.Discounts = discount.Records(p.lines.Applied).OrEmpty()
	if m := p.Shipping; m.ShippingMethodID != nil {
		v.ShippingMethod = &ShippingMethod{ID: *m.ShippingMethodID, Name: m.ShippingMethodName, Carrier: m.ShippingMethodCarrier}
	}
	if p.lines.CodeReason != "" {
		msg := discount.Messages[p.lines.CodeReason]
		v.DiscountMessage = &msg
		v.Issues = append(v.Issues, Issue{Field: "discountCode", Issue: msg})
	}
	if p.shippingErr != nil {
		field, _ := p.shippingErr.Details["field"].(string)
		issue, _ := p.shippingErr.Details["issue"].(string)
		if issue == "" {
			issue = p.shippingErr.Message
		}
		v.Issues = append(v.Issues, Issue{Field: field, Issue: issue})
	}
	for i, l := range p.lines.Lines {
		itemID := l.ItemID
		line := Line{ID: &itemID, VariantID: l.VariantID, ProductID: l.ProductID, BundleID: l.BundleID,
			PricedLine: p.Lines[i].PricedLine, PriceOverridden: l.Overridden}
		if l.Overridden {
			lp := l.ListPrice
			line.ListPrice = &lp
		}
		switch {
		case !l.ProductActive:
			line.Issue = "the product is no longer on sale"
		case l.BundleIssue != "":
			line.Issue = l.BundleIssue
		}
		v.Items = append(v.Items, line)
	}
	return v, s.withCODTotal(v)
}

// withCODTotal sets v's CODTotal from the COD fee the settings charge now.
func (s *Service) withCODTotal(v *View) error {
	fee, err := cod.Fee(s.db)
	if err != nil {
		return err
	}
	v.CODTotal = v.Total + fee
	return nil
}

// snapshotInto fills v's lines and totals from the session's snapshot.
func (s *Service) snapshotInto(v *View, sess *models.CheckoutSession) error {
	var lines []models.CheckoutLine
	if err := json.Unmarshal(sess.Lines, &lines); err != nil {
		return err
	}
	for _, l := range lines {
		v.Items = append(v.Items, Line{VariantID: l.VariantID, ProductID: l.ProductID, BundleID: l.BundleID, PricedLine: l.PricedLine})
	}
	var ship models.Address
	_ = json.Unmarshal(sess.ShippingAddress, &ship)
	v.Subtotal, v.DiscountTotal, v.TaxTotal, v.ShippingCost, v.Total = sess.Subtotal, sess.DiscountTotal, sess.TaxTotal, sess.ShippingCost, sess.Total
	v.Discounts = sess.AppliedDiscounts.OrEmpty()
	v.CGSTTotal, v.SGSTTotal, v.IGSTTotal = order.GSTSplit(sess.TaxTotal, ship.State, s.set.StoreState)
	if m := sess.ShippingChoice; m.ShippingMethodID != nil {
		v.ShippingMethod = &ShippingMethod{ID: *m.ShippingMethodID, Name: m.ShippingMethodName, Carrier: m.ShippingMethodCarrier}
	}
	return nil
}
