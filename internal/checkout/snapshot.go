package checkout

import (
	"encoding/json"
	"time"

	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/shipping"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// buyer returns the customer the session is for and the address snapshots:
// the signed-in customer and two of its own addresses, or for a guest the
// guest record of the email (or a new account when a password was given)
// and the one address given, for shipping and billing. The email of a
// deactivated customer (account or guest record) is refused: FORBIDDEN.
func (s *Service) buyer(tx *gorm.DB, in Input, hash *string) (*models.Customer, json.RawMessage, json.RawMessage, error) {
	if in.Customer != nil {
		ship, _, err := customer.OwnAddress(tx, in.Customer.ID, in.ShippingAddressID, "shippingAddressId")
		if err != nil {
			return nil, nil, nil, err
		}
		bill, _, err := customer.OwnAddress(tx, in.Customer.ID, in.BillingAddressID, "billingAddressId")
		if err != nil {
			return nil, nil, nil, err
		}
		return in.Customer, ship, bill, nil
	}
	g := in.Guest
	addr, err := json.Marshal(g.Address)
	if err != nil {
		return nil, nil, nil, err
	}
	if hash == nil {
		c, err := customer.GuestRecord(tx, g.Email, g.Name, g.Phone) // refuses a deactivated customer
		return c, addr, addr, err
	}
	if err := customer.RefuseDeactivated(tx, g.Email); err != nil {
		return nil, nil, nil, err
	}
	c := &models.Customer{Email: customer.NormalizeEmail(g.Email), Name: g.Name, Phone: g.Phone, PasswordHash: hash, IsActive: true}
	if err := customer.CreateAccount(tx, c); err != nil {
		return nil, nil, nil, err
	}
	return c, addr, addr, nil
}

// stateOf reads the state of an address snapshot ("" when unreadable).
func stateOf(addr json.RawMessage) string {
	var a models.Address
	_ = json.Unmarshal(addr, &a)
	return a.State
}

// Quote is what a purchase of priced lines with a shipping charge costs:
// the snapshot a session keeps and its totals. Total is Subtotal −
// DiscountTotal + ShippingCost; TaxTotal is the GST contained in the lines
// and in the shipping method's price (none for a client's cost). Checkout
// and draft orders both quote through it.
type Quote struct {
	Lines         []models.CheckoutLine
	Subtotal      money.Amount
	DiscountTotal money.Amount
	TaxTotal      money.Amount
	ShippingCost  money.Amount
	Total         money.Amount
	Shipping      models.ShippingChoice
}

// QuoteOf quotes priced lines p with shipping charge, its tax part
// following the goods when the store taxes it so (shipping.TaxedWith).
func QuoteOf(p *cart.Priced, charge shipping.Charge) Quote {
	charge = charge.TaxedWith(goodsOf(p.Lines))
	lines := make([]models.CheckoutLine, len(p.Lines))
	for i, l := range p.Lines {
		lines[i] = models.CheckoutLine{VariantID: l.VariantID, ProductID: l.ProductID, BundleID: l.BundleID,
			PricedLine: models.PricedLine{Title: l.Title, SKU: l.SKU, Quantity: l.Quantity, UnitPrice: l.UnitPrice,
				DiscountAmount: l.Discount, LineTotal: l.Net, GSTRate: l.GSTRate, TaxAmount: l.Tax, HSNCode: l.HSNCode,
				CessRate: l.CessRate, CessAmount: l.Cess, Unit: l.Unit}}
	}
	return Quote{Lines: lines, Subtotal: p.Subtotal, DiscountTotal: p.DiscountTotal,
		TaxTotal: p.TaxTotal + charge.Choice.ShippingTax, ShippingCost: charge.Cost, Total: p.Total + charge.Cost,
		Shipping: charge.Choice}
}

// session builds the session row with the priced snapshot (QuoteOf).
func (s *Service) session(c *models.Cart, in Input, buyer *models.Customer, ship, bill json.RawMessage, p *cart.Priced, charge shipping.Charge) (*models.CheckoutSession, error) {
	sess, err := s.quotedSession(c.ID, buyer, ship, bill, p, charge, s.set.TTL)
	if err != nil {
		return nil, err
	}
	sess.CartFingerprint = fingerprint(fpLinesOf(p.Lines), c.DiscountCode, in)
	sess.DiscountCode, sess.TaxBuyer = c.DiscountCode, in.Buyer
	if in.Guest != nil {
		sess.Name, sess.Phone = in.Guest.Name, in.Guest.Phone
	}
	if p.Discount != nil && p.Discount.Discount.Code != nil && p.Code == nil {
		sess.DiscountCode = p.Discount.Discount.Code
	}
	return sess, nil
}

// quotedSession builds a pending session of cart cartID for buyer, quoted
// from p and charge, held for ttl.
func (s *Service) quotedSession(cartID uuid.UUID, buyer *models.Customer, ship, bill json.RawMessage, p *cart.Priced, charge shipping.Charge, ttl time.Duration) (*models.CheckoutSession, error) {
	q := QuoteOf(p, charge)
	raw, err := json.Marshal(q.Lines)
	if err != nil {
		return nil, err
	}
	now := s.now()
	sess := &models.CheckoutSession{
		ID: uuid.New(), CartID: cartID, CustomerID: buyer.ID, State: models.CheckoutPending,
		Email: buyer.Email, Name: buyer.Name, Phone: buyer.Phone,
		ShippingAddress: models.JSON(ship), BillingAddress: models.JSON(bill), Lines: models.JSON(raw),
		Subtotal: q.Subtotal, DiscountTotal: q.DiscountTotal, TaxTotal: q.TaxTotal,
		ShippingCost: q.ShippingCost, ShippingChoice: q.Shipping,
		Total: q.Total, Currency: s.set.Currency, DiscountCode: p.Code,
		PaymentProvider: s.provider.Name(), PaymentStatus: models.IntentCreated,
		ExpiresAt: now.Add(ttl), CreatedAt: now, UpdatedAt: now,
	}
	if p.Discount != nil {
		sess.DiscountID = &p.Discount.Discount.ID
	}
	sess.AppliedDiscounts = discount.Records(p.Applied)
	return sess, nil
}

// goodsOf is the priced lines as shipping.SplitWithGoods weighs them.
func goodsOf(lines []cart.Line) []shipping.Goods {
	out := make([]shipping.Goods, len(lines))
	for i, l := range lines {
		out[i] = shipping.Goods{Value: l.Net, GSTRate: l.GSTRate, CessRate: l.CessRate, HSN: l.HSNCode, UQC: l.Unit}
	}
	return out
}

// codFeeOf is the COD fee decision d charges with priced lines p: at the
// fee's own rate, or split over the goods when the store taxes it with
// them (withGoods; docs/DECISIONS.md "Shipping taxed with the goods"),
// its parts then to be added to the session's ChargeParts.
func codFeeOf(d cod.Decision, p *cart.Priced, withGoods bool) (order.CODFee, models.ChargeParts) {
	fee := order.CODFee{Fee: d.Fee, Tax: d.FeeTax, Rate: d.FeeRate}
	if !withGoods {
		return fee, nil
	}
	parts := shipping.SplitWithGoods(models.LineCODFee, d.Fee, goodsOf(p.Lines))
	if parts == nil {
		return fee, nil
	}
	fee.Tax, _ = parts.Totals(models.LineCODFee)
	return fee, parts
}
