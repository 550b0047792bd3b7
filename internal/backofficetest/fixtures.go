// Package backofficetest inserts catalog, customer and order rows straight
// into a test database, for the back-office tests that need orders without
// going through checkout and the payment webhook.
package backofficetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// MustProduct inserts an active product priced price (paise).
func MustProduct(tb testing.TB, db *gorm.DB, title string, price money.Amount) models.Product {
	tb.Helper()
	p := models.Product{Title: title, Slug: "p-" + uuid.NewString(), Price: price, Status: models.ProductActive}
	if err := db.Create(&p).Error; err != nil {
		tb.Fatalf("backofficetest: product: %v", err)
	}
	return p
}

// MustVariant inserts a variant of product with inventory on hand.
func MustVariant(tb testing.TB, db *gorm.DB, productID uuid.UUID, inventory int) models.Variant {
	tb.Helper()
	v := models.Variant{ProductID: productID, SKU: "SKU-" + uuid.NewString()[:13], Inventory: inventory}
	if err := db.Create(&v).Error; err != nil {
		tb.Fatalf("backofficetest: variant: %v", err)
	}
	return v
}

// MustCustomer inserts an active registered customer.
func MustCustomer(tb testing.TB, db *gorm.DB, name string) models.Customer {
	tb.Helper()
	c := models.Customer{Email: fmt.Sprintf("c-%s@example.com", uuid.NewString()[:8]), Name: name,
		Phone: "+91 98450 00000", IsActive: true}
	if err := db.Create(&c).Error; err != nil {
		tb.Fatalf("backofficetest: customer: %v", err)
	}
	return c
}

// Line is an order line to insert.
type Line struct {
	Product models.Product
	Variant models.Variant
	Qty     int
	// Unit defaults to the product price.
	Unit money.Amount
}

// OrderSpec describes an order to insert. Status defaults to confirmed and
// CreatedAt to now; the order is paid in full.
type OrderSpec struct {
	Customer  models.Customer
	Status    string
	CreatedAt time.Time
	Lines     []Line
	Shipping  money.Amount
}

// MustOrder inserts a paid order with its lines and a captured payment, and
// commits its units (variants.committed) when the order is unshipped and not
// cancelled, or takes them off on-hand stock when it has shipped, as the
// real order flow would have.
func MustOrder(tb testing.TB, db *gorm.DB, s OrderSpec) models.Order {
	tb.Helper()
	if s.Status == "" {
		s.Status = models.OrderConfirmed
	}
	if s.CreatedAt.IsZero() {
		s.CreatedAt = time.Now().UTC()
	}
	addr := models.JSON(`{"type":"shipping","street":"1 MG Road","city":"Bengaluru","state":"Karnataka","pincode":"560001","district":"","country":"IN"}`)
	o := models.Order{
		CustomerID: s.Customer.ID, Status: s.Status, PaymentStatus: models.PaymentPaid,
		Email: s.Customer.Email, Name: s.Customer.Name, Phone: s.Customer.Phone,
		ShippingAddress: addr, BillingAddress: addr, ShippingCost: s.Shipping, Currency: "INR",
		PaymentProvider: "simulator", PaymentIntentID: "order_sim_" + uuid.NewString()[:12],
		CreatedAt: s.CreatedAt, UpdatedAt: s.CreatedAt,
	}
	for i := range s.Lines {
		l := &s.Lines[i]
		if l.Unit == 0 {
			l.Unit = l.Product.Price
		}
		lineTotal := l.Unit * money.Amount(l.Qty)
		pid, vid := l.Product.ID, l.Variant.ID
		o.Items = append(o.Items, models.OrderItem{ProductID: &pid, VariantID: &vid, Title: l.Product.Title,
			SKU: l.Variant.SKU, Quantity: l.Qty, UnitPrice: l.Unit, LineTotal: lineTotal, CreatedAt: s.CreatedAt})
		o.Subtotal += lineTotal
	}
	o.Total = o.Subtotal + s.Shipping
	o.PaidTotal = o.Total
	err := db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&o).Error; err != nil {
			return err
		}
		pay := models.Payment{OrderID: o.ID, Provider: "simulator", PaymentIntentID: o.PaymentIntentID,
			PaymentID: "pay_sim_" + uuid.NewString()[:12], Amount: o.Total, Currency: "INR", Method: "card",
			Status: "captured", CreatedAt: s.CreatedAt}
		if err := tx.Create(&pay).Error; err != nil {
			return err
		}
		for _, l := range s.Lines {
			var q string
			switch s.Status {
			case models.OrderPending, models.OrderConfirmed, models.OrderProcessing:
				q = `UPDATE variants SET committed = committed + ? WHERE id = ?`
			case models.OrderShipped, models.OrderDelivered:
				q = `UPDATE variants SET inventory = inventory - ? WHERE id = ?`
			default:
				continue
			}
			if err := tx.Exec(q, l.Qty, l.Variant.ID).Error; err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatalf("backofficetest: order: %v", err)
	}
	return o
}

// Reload reads v again.
func Reload(tb testing.TB, db *gorm.DB, v models.Variant) models.Variant {
	tb.Helper()
	var out models.Variant
	if err := db.First(&out, "id = ?", v.ID).Error; err != nil {
		tb.Fatalf("backofficetest: reload variant: %v", err)
	}
	return out
}
