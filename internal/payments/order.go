package payments

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

// createOrder writes the order of sess with its lines (copied from the
// priced snapshot, so the price paid is the price quoted), its first status
// history entry and its payment. The order number comes from the sequence
// (column default); UNIQUE (payment_provider, payment_intent_id) refuses a
// second order for the intent whatever happens above it.
func (s *Service) createOrder(tx *gorm.DB, sess *models.CheckoutSession, lines []models.CheckoutLine, p gateway.Payment) (*models.Order, error) {
	var ship models.Address
	if err := json.Unmarshal(sess.ShippingAddress, &ship); err != nil {
		return nil, fmt.Errorf("payments.create_order: session %s shipping address: %w", sess.ID, err)
	}
	cgst, sgst, igst := gstSplit(sess.TaxTotal, ship.State, s.set.StoreState)
	sessionID := sess.ID
	o := &models.Order{
		ID: uuid.New(), CustomerID: sess.CustomerID, CheckoutSessionID: &sessionID,
		Status: models.OrderConfirmed, PaymentStatus: models.PaymentPaid,
		Email: sess.Email, Name: sess.Name, Phone: sess.Phone,
		ShippingAddress: sess.ShippingAddress, BillingAddress: sess.BillingAddress,
		Subtotal: sess.Subtotal, DiscountTotal: sess.DiscountTotal, TaxTotal: sess.TaxTotal,
		CGSTTotal: cgst, SGSTTotal: sgst, IGSTTotal: igst,
		ShippingCost: sess.ShippingCost, ShippingChoice: sess.ShippingChoice, Total: sess.Total, PaidTotal: money.Amount(p.Amount),
		Currency: sess.Currency, DiscountID: sess.DiscountID, DiscountCode: sess.DiscountCode,
		PaymentProvider: sess.PaymentProvider, PaymentIntentID: p.OrderID,
	}
	if err := tx.Create(o).Error; err != nil {
		return nil, fmt.Errorf("payments.create_order: %w", err)
	}
	if o.OrderNumber == "" {
		// The column default is filled by Postgres; read it back if the
		// driver did not return it.
		if err := tx.Model(o).Select("order_number").Where("id = ?", o.ID).Scan(&o.OrderNumber).Error; err != nil {
			return nil, fmt.Errorf("payments.create_order: number: %w", err)
		}
	}
	o.Items = orderItems(o.ID, lines)
	if len(o.Items) > 0 {
		if err := tx.Create(&o.Items).Error; err != nil {
			return nil, fmt.Errorf("payments.create_order: items: %w", err)
		}
	}
	note := fmt.Sprintf("payment %s captured", p.ID)
	if err := tx.Create(&models.OrderStatusHistory{OrderID: o.ID, ToStatus: models.OrderConfirmed, Note: note}).Error; err != nil {
		return nil, fmt.Errorf("payments.create_order: history: %w", err)
	}
	pay := models.Payment{
		OrderID: o.ID, Provider: sess.PaymentProvider, PaymentIntentID: p.OrderID, PaymentID: p.ID,
		Amount: money.Amount(p.Amount), Currency: strings.ToUpper(p.Currency), Method: p.Method, Status: "captured",
	}
	if err := tx.Create(&pay).Error; err != nil {
		return nil, fmt.Errorf("payments.create_order: payment: %w", err)
	}
	return o, nil
}

func orderItems(orderID uuid.UUID, lines []models.CheckoutLine) []models.OrderItem {
	items := make([]models.OrderItem, 0, len(lines))
	for _, l := range lines {
		productID, variantID := l.ProductID, l.VariantID
		items = append(items, models.OrderItem{
			OrderID: orderID, ProductID: &productID, VariantID: &variantID, Title: l.Title, SKU: l.SKU,
			Quantity: l.Quantity, UnitPrice: l.UnitPrice, DiscountAmount: l.DiscountAmount, LineTotal: l.LineTotal,
			GSTRate: l.GSTRate, TaxAmount: l.TaxAmount, HSNCode: l.HSNCode,
		})
	}
	return items
}

// gstSplit divides the tax of an order: shipped within the store's state it
// is CGST and SGST in halves (an odd paisa goes to SGST), else all IGST
// (docs/DECISIONS.md "Payments and webhooks").
func gstSplit(tax money.Amount, shipState, storeState string) (cgst, sgst, igst money.Amount) {
	if storeState != "" && equalFold(shipState, storeState) {
		cgst = tax / 2
		return cgst, tax - cgst, 0
	}
	return 0, 0, tax
}

// equalFold compares names ignoring case and surrounding space.
func equalFold(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// countDiscountUse records the order's use of its discount: the total on the
// discount and a row per order that per-customer limits count. The use is
// counted even past a limit reached meanwhile: the customer has paid.
func countDiscountUse(tx *gorm.DB, sess *models.CheckoutSession, orderID uuid.UUID) error {
	if sess.DiscountID == nil {
		return nil
	}
	res := tx.Exec(`UPDATE discounts SET usage_count = usage_count + 1, updated_at = now() WHERE id = ?`, *sess.DiscountID)
	if res.Error != nil {
		return fmt.Errorf("payments.discount_use: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return nil // deleted since checkout
	}
	err := tx.Exec(`INSERT INTO discount_usages (discount_id, customer_id, order_id) VALUES (?, ?, ?)
		ON CONFLICT (discount_id, order_id) DO NOTHING`, *sess.DiscountID, sess.CustomerID, orderID).Error
	if err != nil {
		return fmt.Errorf("payments.discount_use: %w", err)
	}
	return nil
}
