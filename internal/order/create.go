package order

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Create stages in u the order of checkout session sess (checkout calls it
// when the payment p is captured) with its lines (copied from the priced
// snapshot, so the price paid is the price quoted), its first status
// history entry and its payment. The order number is taken from the
// sequence at once; UNIQUE (payment_provider, payment_intent_id) refuses a
// second order for the intent whatever happens above it (at u's flush).
// storeState decides the GST split (STORE_STATE).
func Create(u *uow.Unit, sess *models.CheckoutSession, lines []models.CheckoutLine, p gateway.Payment, storeState string) (*models.Order, error) {
	o, err := newOrder(sess, lines, storeState)
	if err != nil {
		return nil, err
	}
	o.PaymentStatus, o.PaidTotal, o.PaymentIntentID = models.PaymentPaid, money.Amount(p.Amount), p.OrderID
	if err := stage(u, o, lines, fmt.Sprintf("payment %s captured", p.ID)); err != nil {
		return nil, err
	}
	pay := models.Payment{
		ID: uuid.New(), OrderID: o.ID, Provider: sess.PaymentProvider, PaymentIntentID: p.OrderID, PaymentID: p.ID,
		Amount: money.Amount(p.Amount), Currency: strings.ToUpper(p.Currency), Method: p.Method, Status: "captured",
	}
	if err := u.Create(&pay); err != nil {
		return nil, fmt.Errorf("order.create: payment: %w", err)
	}
	return o, nil
}

// CODFee is the cash on delivery fee a COD order is charged: GST-inclusive,
// Tax of it at Rate.
type CODFee struct {
	Fee  money.Amount
	Tax  money.Amount
	Rate money.Rate
}

// CreateCOD writes the cash on delivery order of completed checkout
// session sess (package checkout, docs/DECISIONS.md "Cash on delivery and
// offline payments"): confirmed, its payment pending, no payment row. The
// session's Total and TaxTotal already hold the fee and its GST, so the
// order's GST split covers the fee. UNIQUE (payment_provider,
// payment_intent_id) makes it one order per session.
func CreateCOD(u *uow.Unit, sess *models.CheckoutSession, lines []models.CheckoutLine, fee CODFee, storeState string) (*models.Order, error) {
	o, err := newOrder(sess, lines, storeState)
	if err != nil {
		return nil, err
	}
	o.PaymentStatus, o.PaymentIntentID = models.PaymentPending, *sess.PaymentIntentID
	o.PaymentMethod, o.CODFee, o.CODFeeTax, o.CODFeeGSTRate = models.PaymentCOD, fee.Fee, fee.Tax, fee.Rate
	if err := stage(u, o, lines, "cash on delivery order placed"); err != nil {
		return nil, err
	}
	return o, nil
}

// newOrder is the order row of session sess with its lines, before its
// payment.
func newOrder(sess *models.CheckoutSession, lines []models.CheckoutLine, storeState string) (*models.Order, error) {
	var ship models.Address
	if err := json.Unmarshal(sess.ShippingAddress, &ship); err != nil {
		return nil, fmt.Errorf("order.create: session %s shipping address: %w", sess.ID, err)
	}
	cgst, sgst, igst := GSTSplit(sess.TaxTotal, ship.State, storeState)
	var cess money.Amount
	for _, l := range lines {
		cess += l.CessAmount
	}
	for _, p := range sess.ChargeParts { // the shipping and the COD fee taxed with goods under a cess
		cess += p.Cess
	}
	sessionID := sess.ID
	return &models.Order{
		ID: uuid.New(), CustomerID: sess.CustomerID, CheckoutSessionID: &sessionID,
		Status: models.OrderConfirmed, PaymentMethod: models.PaymentOnline, FulfillmentStatus: models.FulfillmentUnfulfilled,
		Email: sess.Email, Name: sess.Name, Phone: sess.Phone,
		ShippingAddress: sess.ShippingAddress, BillingAddress: sess.BillingAddress,
		Subtotal: sess.Subtotal, DiscountTotal: sess.DiscountTotal, TaxTotal: sess.TaxTotal,
		CGSTTotal: cgst, SGSTTotal: sgst, IGSTTotal: igst, CessTotal: cess,
		ShippingCost: sess.ShippingCost, ShippingChoice: sess.ShippingChoice, TaxBuyer: sess.TaxBuyer, Total: sess.Total,
		Currency: sess.Currency, DiscountID: sess.DiscountID, DiscountCode: sess.DiscountCode, AppliedDiscounts: sess.AppliedDiscounts,
		PaymentProvider: sess.PaymentProvider,
	}, nil
}

// stage stages order o, its lines and its first history entry with note.
// Its number is taken from the sequence first (a staged insert reads
// nothing back), and every key and default the order's answer shows is set
// here, not by the table.
func stage(u *uow.Unit, o *models.Order, lines []models.CheckoutLine, note string) error {
	if err := u.Tx().Raw(`SELECT shop_next_order_number()`).Scan(&o.OrderNumber).Error; err != nil {
		return fmt.Errorf("order.create: number: %w", err)
	}
	if err := u.Create(o); err != nil {
		return fmt.Errorf("order.create: %w", err)
	}
	o.Items = orderItems(o.ID, lines)
	if len(o.Items) > 0 {
		if err := u.Create(&o.Items); err != nil {
			return fmt.Errorf("order.create: items: %w", err)
		}
	}
	// The status it is placed in: confirmed, or pending_confirmation for a
	// COD order waiting for its customer (its history then reads placed
	// waiting, then confirmed or cancelled).
	h := &models.OrderStatusHistory{ID: uuid.New(), OrderID: o.ID, ToStatus: o.Status, Note: note, CreatedAt: o.CreatedAt}
	if err := u.Create(h); err != nil {
		return fmt.Errorf("order.create: history: %w", err)
	}
	return nil
}

func orderItems(orderID uuid.UUID, lines []models.CheckoutLine) []models.OrderItem {
	items := make([]models.OrderItem, 0, len(lines))
	for _, l := range lines {
		productID, variantID := l.ProductID, l.VariantID
		items = append(items, models.OrderItem{
			ID: uuid.New(), OrderID: orderID, ProductID: &productID, VariantID: &variantID, PricedLine: l.PricedLine,
		})
	}
	return items
}

// GSTSplit divides the GST of an order: shipped within the store's state it
// is CGST and SGST in equal halves, else all IGST (money.SplitGST; every
// line's tax is two equal halves, money.IncludedGST, so their sum halves
// exactly; docs/DECISIONS.md "GST split").
func GSTSplit(tax money.Amount, shipState, storeState string) (cgst, sgst, igst money.Amount) {
	intra := storeState != "" && strings.EqualFold(strings.TrimSpace(shipState), strings.TrimSpace(storeState))
	return money.SplitGST(tax, intra)
}
