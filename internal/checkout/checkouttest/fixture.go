// Package checkouttest builds checkout sessions for checkout tests without
// the storefront: a product and variant, a locked cart, a PENDING session
// with its priced snapshot, and the stock reserved for it.
package checkouttest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Options shape a checkout; zero values take the defaults noted.
type Options struct {
	// Inventory is the variant's on-hand units (default 10).
	Inventory int
	// Quantity is the units bought (default 2).
	Quantity int
	// UnitPrice is tax-inclusive (default 499.50).
	UnitPrice money.Amount
	// GSTRate defaults to 18 %.
	GSTRate money.Rate
	// ShipState defaults to Karnataka (the default STORE_STATE).
	ShipState string
	// Provider defaults to simulator.
	Provider string
	// ShippingCost is added to the total.
	ShippingCost money.Amount
	// Discount applies a fixed amount off with a discount row when set.
	Discount money.Amount
	// LowStockThreshold sets the variant's own threshold.
	LowStockThreshold *int
}

// Checkout is a PENDING checkout session and what it was made of.
type Checkout struct {
	SessionID  uuid.UUID
	CartID     uuid.UUID
	CustomerID uuid.UUID
	ProductID  uuid.UUID
	VariantID  uuid.UUID
	DiscountID *uuid.UUID
	// IntentID is the gateway order id webhooks carry as order_id.
	IntentID string
	Total    money.Amount
	TaxTotal money.Amount
	Currency string
	Quantity int
}

// MustCheckout creates a checkout as POST /orders would leave it.
func MustCheckout(tb testing.TB, db *gorm.DB, o Options) Checkout {
	tb.Helper()
	defaults(&o)
	suffix := randomHex(4)
	product := models.Product{ID: uuid.New(), Title: "Tee " + suffix, Slug: "tee-" + suffix, Price: o.UnitPrice,
		GSTRate: o.GSTRate, HSNCode: "6109", Status: models.ProductActive}
	variant := models.Variant{ID: uuid.New(), ProductID: product.ID, SKU: "TEE-" + suffix, Inventory: o.Inventory,
		LowStockThreshold: o.LowStockThreshold}
	customer := models.Customer{ID: uuid.New(), Email: "shopper-" + suffix + "@example.com", Name: "Shopper", IsGuest: true, IsActive: true}
	guest := "guest-" + suffix
	cart := models.Cart{ID: uuid.New(), SessionID: &guest}
	mustCreate(tb, db, &product, &variant, &customer, &cart,
		&models.CartItem{CartID: cart.ID, VariantID: variant.ID, Quantity: o.Quantity})

	gross := o.UnitPrice * money.Amount(o.Quantity)
	lineTotal := gross - o.Discount
	tax := money.IncludedTax(lineTotal, o.GSTRate)
	line := models.CheckoutLine{VariantID: variant.ID, ProductID: product.ID, Title: product.Title, SKU: variant.SKU,
		Quantity: o.Quantity, UnitPrice: o.UnitPrice, DiscountAmount: o.Discount, LineTotal: lineTotal,
		GSTRate: o.GSTRate, TaxAmount: tax, HSNCode: product.HSNCode}
	c := Checkout{CartID: cart.ID, CustomerID: customer.ID, ProductID: product.ID, VariantID: variant.ID,
		IntentID: "order_sim_" + randomHex(7), Total: lineTotal + o.ShippingCost, TaxTotal: tax, Currency: "INR", Quantity: o.Quantity}
	var code *string
	if o.Discount > 0 {
		d := models.Discount{ID: uuid.New(), Code: ptr(strings.ToUpper("SAVE" + suffix)), Type: models.DiscountFixedAmount, Value: int64(o.Discount),
			ApplicationType: models.DiscountManual, Scope: models.DiscountScopeOrder, IsActive: true}
		mustCreate(tb, db, &d)
		c.DiscountID, code = &d.ID, d.Code
	}
	addr, _ := json.Marshal(models.Address{Type: "shipping", Street: "1 MG Road", City: "Bengaluru", State: o.ShipState,
		Pincode: "560001", District: "Bengaluru Urban", Country: "IN"})
	lines, _ := json.Marshal([]models.CheckoutLine{line})
	sess := models.CheckoutSession{ID: uuid.New(), CartID: cart.ID, CustomerID: customer.ID, State: models.CheckoutPending,
		CartFingerprint: suffix, Email: customer.Email, Name: customer.Name, Phone: "+919800000000",
		ShippingAddress: addr, BillingAddress: addr, Lines: lines, Subtotal: gross, DiscountTotal: o.Discount,
		TaxTotal: tax, ShippingCost: o.ShippingCost, Total: c.Total, Currency: c.Currency, DiscountID: c.DiscountID,
		DiscountCode: code, PaymentProvider: o.Provider, PaymentIntentID: &c.IntentID, PaymentStatus: models.IntentCreated,
		ExpiresAt: time.Now().Add(15 * time.Minute)}
	err := db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&sess).Error; err != nil {
			return err
		}
		if err := stock.Reserve(tx, sess.ID, []stock.Item{{VariantID: variant.ID, Quantity: o.Quantity}}); err != nil {
			return err
		}
		return tx.Model(&models.Cart{}).Where("id = ?", cart.ID).Update("locked_by", sess.ID).Error
	})
	if err != nil {
		tb.Fatalf("paymenttest: checkout: %v", err)
	}
	c.SessionID = sess.ID
	return c
}

// MustReplace does what a repeat POST /orders with other details does to
// checkout c: c's session ends EXPIRED (stock and cart released) and a new
// PENDING session of the same cart, lines and purchase takes its place, with
// its own gateway order id.
func MustReplace(tb testing.TB, db *gorm.DB, c Checkout) Checkout {
	tb.Helper()
	MustExpire(tb, db, c)
	var sess models.CheckoutSession
	if err := db.Take(&sess, "id = ?", c.SessionID).Error; err != nil {
		tb.Fatalf("paymenttest: replace: %v", err)
	}
	purchase := sess.ID
	if sess.PurchaseID != nil {
		purchase = *sess.PurchaseID
	}
	next := c
	next.SessionID, next.IntentID = uuid.New(), "order_sim_"+randomHex(7)
	sess.ID, sess.PurchaseID, sess.PaymentIntentID, sess.State = next.SessionID, &purchase, &next.IntentID, models.CheckoutPending
	sess.CartFingerprint = randomHex(4)
	sess.CreatedAt, sess.UpdatedAt, sess.ExpiresAt = time.Now(), time.Now(), time.Now().Add(15*time.Minute)
	err := db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&sess).Error; err != nil {
			return err
		}
		if err := stock.Reserve(tx, sess.ID, []stock.Item{{VariantID: c.VariantID, Quantity: c.Quantity}}); err != nil {
			return err
		}
		return tx.Model(&models.Cart{}).Where("id = ?", c.CartID).Update("locked_by", sess.ID).Error
	})
	if err != nil {
		tb.Fatalf("paymenttest: replace: %v", err)
	}
	return next
}

// MustExpire does what checkout expiry does: releases the session's stock and
// cart lock and marks it EXPIRED.
func MustExpire(tb testing.TB, db *gorm.DB, c Checkout) {
	tb.Helper()
	err := db.Transaction(func(tx *gorm.DB) error {
		if _, err := stock.Release(tx, c.SessionID); err != nil {
			return err
		}
		if err := tx.Model(&models.Cart{}).Where("id = ?", c.CartID).Update("locked_by", nil).Error; err != nil {
			return err
		}
		return tx.Model(&models.CheckoutSession{}).Where("id = ?", c.SessionID).Update("state", models.CheckoutExpired).Error
	})
	if err != nil {
		tb.Fatalf("paymenttest: expire: %v", err)
	}
}

func defaults(o *Options) {
	if o.Inventory == 0 {
		o.Inventory = 10
	}
	if o.Quantity == 0 {
		o.Quantity = 2
	}
	if o.UnitPrice == 0 {
		o.UnitPrice = 49950
	}
	if o.GSTRate == 0 {
		o.GSTRate = 1800
	}
	if o.ShipState == "" {
		o.ShipState = "Karnataka"
	}
	if o.Provider == "" {
		o.Provider = "simulator"
	}
}

func mustCreate(tb testing.TB, db *gorm.DB, rows ...any) {
	tb.Helper()
	for _, r := range rows {
		if err := db.Create(r).Error; err != nil {
			tb.Fatalf("paymenttest: create %T: %v", r, err)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
