package returnapi_test

import (
	"math"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// env is an app, a staff member's token and a customer with a token.
type env struct {
	app      *testkit.App
	staff    string
	customer *models.Customer
	token    string
}

func newEnv(t *testing.T, opts ...testkit.Option) env {
	t.Helper()
	opts = append([]testkit.Option{testkit.WithConfig(func(c *config.Config) {
		c.AdminGeneralRateLimit = 100000
	})}, opts...)
	app := testkit.MustApp(t, opts...)
	_, staff := testkit.MustAdmin(t, app, string(rbac.Staff))
	cu, tok := testkit.MustCustomer(t, app)
	return env{app: app, staff: staff, customer: cu, token: tok}
}

// lineSpec is an order line: units, what they cost in all (after
// discounts), and the variant's stock on hand after the sale.
type lineSpec struct {
	qty       int
	lineTotal money.Amount
	discount  money.Amount
}

// order inserts a paid order of e's customer in status with lines and
// shipping; its variants have 10 units on hand after shipping.
func (e env) order(t *testing.T, status string, shipping money.Amount, lines ...lineSpec) (models.Order, []models.Variant) {
	t.Helper()
	db := e.app.DB
	var bl []fixtures.Line
	var vs []models.Variant
	for _, l := range lines {
		p := fixtures.MustProduct(t, db, "Mug "+uuid.NewString()[:6], 100)
		v := fixtures.MustVariant(t, db, p.ID, 10+l.qty)
		bl = append(bl, fixtures.Line{Product: p, Variant: v, Qty: l.qty, Unit: 100})
		vs = append(vs, v)
	}
	o := fixtures.MustOrder(t, db, fixtures.OrderSpec{Customer: *e.customer, Status: status, Lines: bl, Shipping: shipping})
	// The lines' real totals: after their discount shares, odd paise and all.
	var subtotal, discount, total money.Amount
	for i, l := range lines {
		it := &o.Items[i]
		it.UnitPrice = (l.lineTotal + l.discount + money.Amount(l.qty) - 1) / money.Amount(l.qty)
		it.DiscountAmount = it.UnitPrice*money.Amount(l.qty) - l.lineTotal
		it.LineTotal = l.lineTotal
		if err := db.Model(&models.OrderItem{}).Where("id = ?", it.ID).Updates(map[string]any{
			"unit_price": it.UnitPrice, "discount_amount": it.DiscountAmount, "line_total": it.LineTotal}).Error; err != nil {
			t.Fatal(err)
		}
		subtotal += it.UnitPrice * money.Amount(l.qty)
		discount += it.DiscountAmount
		total += l.lineTotal
	}
	total += shipping
	if err := db.Model(&models.Order{}).Where("id = ?", o.ID).Updates(map[string]any{
		"subtotal": subtotal, "discount_total": discount, "total": total, "paid_total": total}).Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Model(&models.Payment{}).Where("order_id = ?", o.ID).Update("amount", total).Error; err != nil {
		t.Fatal(err)
	}
	// The payment simulator and the Razorpay stub refund at most what was
	// captured: tell them the payment's new amount.
	var pay models.Payment
	db.First(&pay, "order_id = ?", o.ID)
	gateway.RegisterSimulatedPayment(gateway.SimPayment{ID: pay.PaymentID, Amount: total, Captured: true})
	o.Subtotal, o.DiscountTotal, o.Total, o.PaidTotal = subtotal, discount, total, total
	return o, vs
}

// fulfil inserts a fulfilment of qty units of each line (all when qty is
// nil) in status (shipped or delivered, delivered at deliveredAt).
func fulfil(t *testing.T, e env, o models.Order, status string, deliveredAt time.Time, qty ...int) {
	t.Helper()
	f := models.Fulfillment{OrderID: o.ID, Status: status, Carrier: "Delhivery", TrackingNumber: "T" + uuid.NewString()[:8],
		ShippedAt: deliveredAt.Add(-48 * time.Hour), CreatedAt: time.Now().UTC(), UpdatedAt: time.Now().UTC()}
	if status == models.ShipmentDelivered {
		at := deliveredAt
		f.DeliveredAt = &at
	}
	for i, it := range o.Items {
		q := it.Quantity
		if i < len(qty) {
			q = qty[i]
		}
		if q > 0 {
			f.Items = append(f.Items, models.FulfillmentItem{OrderItemID: it.ID, Quantity: q})
		}
	}
	if err := e.app.DB.Create(&f).Error; err != nil {
		t.Fatal(err)
	}
}

func (e env) customerPath(o models.Order) string { return "/orders/" + o.ID.String() + "/returns" }

func item(o models.Order, line, qty int) map[string]any {
	return map[string]any{"orderItemId": o.Items[line].ID, "quantity": qty, "reason": "damaged"}
}

// returnBody is a return as answered.
type returnBody struct {
	ID             string  `json:"id"`
	Status         string  `json:"status"`
	RefundAmount   float64 `json:"refundAmount"`
	RefundShipping bool    `json:"refundShipping"`
	Items          []struct {
		OrderItemID       string  `json:"orderItemId"`
		Quantity          int     `json:"quantity"`
		ReceivedQuantity  int     `json:"receivedQuantity"`
		RestockedQuantity int     `json:"restockedQuantity"`
		RefundAmount      float64 `json:"refundAmount"`
	} `json:"items"`
	Refund *struct {
		ID     string  `json:"id"`
		Amount float64 `json:"amount"`
		Status string  `json:"status"`
	} `json:"refund"`
}

func (e env) adminDo(t *testing.T, method, path string, body any) *testkit.Response {
	t.Helper()
	return e.app.Do(t, method, "/api/v1/admin"+path, testkit.Req{Token: e.staff, Body: body})
}

// toRefunded takes return id from requested to received with every unit
// and refunds it; it returns the return as answered by the refund.
func (e env) toRefunded(t *testing.T, id string, items []map[string]any, refundShipping bool) returnBody {
	t.Helper()
	e.adminDo(t, "POST", "/returns/"+id+"/approve", nil).Expect(t, 200)
	e.adminDo(t, "POST", "/returns/"+id+"/receive", map[string]any{"items": items, "refundShipping": refundShipping}).Expect(t, 200)
	var r returnBody
	e.adminDo(t, "POST", "/returns/"+id+"/refund", nil).Expect(t, 200).JSON(t, &r)
	return r
}

func reloadOrder(t *testing.T, e env, id uuid.UUID) models.Order {
	t.Helper()
	var o models.Order
	if err := e.app.DB.First(&o, "id = ?", id).Error; err != nil {
		t.Fatal(err)
	}
	return o
}

// paise is a JSON money value in paise.
func paise(rupees float64) money.Amount { return money.Amount(math.Round(rupees * 100)) }
