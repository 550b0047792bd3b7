package order

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Create writes the order of checkout session sess (checkout calls it when
// the payment p is captured) with its lines (copied from the
// priced snapshot, so the price paid is the price quoted), its first status
// history entry and its payment. The order number comes from the sequence
// (column default); UNIQUE (payment_provider, payment_intent_id) refuses a
// second order for the intent whatever happens above it.
// storeState decides the GST split (STORE_STATE).
func Create(tx *gorm.DB, sess *models.CheckoutSession, lines []models.CheckoutLine, p gateway.Payment, storeState string) (*models.Order, error) {
	var ship models.Address
	if err := json.Unmarshal(sess.ShippingAddress, &ship); err != nil {
		return nil, fmt.Errorf("order.create: session %s shipping address: %w", sess.ID, err)
	}
	cgst, sgst, igst := GSTSplit(sess.TaxTotal, ship.State, storeState)
	sessionID := sess.ID
	o := &models.Order{
		ID: uuid.New(), CustomerID: sess.CustomerID, CheckoutSessionID: &sessionID,
		Status: models.OrderConfirmed, PaymentStatus: models.PaymentPaid,
		Email: sess.Email, Name: sess.Name, Phone: sess.Phone,
		ShippingAddress: sess.ShippingAddress, BillingAddress: sess.BillingAddress,
		Subtotal: sess.Subtotal, DiscountTotal: sess.DiscountTotal, TaxTotal: sess.TaxTotal,
		CGSTTotal: cgst, SGSTTotal: sgst, IGSTTotal: igst,
		ShippingCost: sess.ShippingCost, ShippingChoice: sess.ShippingChoice, TaxBuyer: sess.TaxBuyer, Total: sess.Total, PaidTotal: money.Amount(p.Amount),
		Currency: sess.Currency, DiscountID: sess.DiscountID, DiscountCode: sess.DiscountCode,
		PaymentProvider: sess.PaymentProvider, PaymentIntentID: p.OrderID,
	}
	if err := tx.Create(o).Error; err != nil {
		return nil, fmt.Errorf("order.create: %w", err)
	}
	if o.OrderNumber == "" {
		// The column default is filled by Postgres; read it back if the
		// driver did not return it.
		if err := tx.Model(o).Select("order_number").Where("id = ?", o.ID).Scan(&o.OrderNumber).Error; err != nil {
			return nil, fmt.Errorf("order.create: number: %w", err)
		}
	}
	o.Items = orderItems(o.ID, lines)
	if len(o.Items) > 0 {
		if err := tx.Create(&o.Items).Error; err != nil {
			return nil, fmt.Errorf("order.create: items: %w", err)
		}
	}
	note := fmt.Sprintf("payment %s captured", p.ID)
	if err := tx.Create(&models.OrderStatusHistory{OrderID: o.ID, ToStatus: models.OrderConfirmed, Note: note}).Error; err != nil {
		return nil, fmt.Errorf("order.create: history: %w", err)
	}
	pay := models.Payment{
		OrderID: o.ID, Provider: sess.PaymentProvider, PaymentIntentID: p.OrderID, PaymentID: p.ID,
		Amount: money.Amount(p.Amount), Currency: strings.ToUpper(p.Currency), Method: p.Method, Status: "captured",
	}
	if err := tx.Create(&pay).Error; err != nil {
		return nil, fmt.Errorf("order.create: payment: %w", err)
	}
	return o, nil
}

func orderItems(orderID uuid.UUID, lines []models.CheckoutLine) []models.OrderItem {
	items := make([]models.OrderItem, 0, len(lines))
	for _, l := range lines {
		productID, variantID := l.ProductID, l.VariantID
		items = append(items, models.OrderItem{
			OrderID: orderID, ProductID: &productID, VariantID: &variantID, PricedLine: l.PricedLine,
		})
	}
	return items
}

// GSTSplit divides the tax of an order: shipped within the store's state it
// is CGST and SGST in halves (an odd paisa goes to SGST), else all IGST
// (docs/DECISIONS.md "Payments and webhooks").
func GSTSplit(tax money.Amount, shipState, storeState string) (cgst, sgst, igst money.Amount) {
	if storeState != "" && strings.EqualFold(strings.TrimSpace(shipState), strings.TrimSpace(storeState)) {
		cgst = tax / 2
		return cgst, tax - cgst, 0
	}
	return 0, 0, tax
}
