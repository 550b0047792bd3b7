package checkout_test

import (
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// env is a service over a fresh database and Redis index.
type env struct {
	d   *app.App
	svc *checkout.Service
}

func newEnv(t *testing.T) *env {
	t.Helper()
	_, redisURL := testkit.MustRedis(t)
	d := testkit.MustDeps(t, testkit.MustConfig(t, testkit.MustDatabaseURL(t), redisURL))
	return &env{d: d, svc: checkout.New(d.DB, d.Queue, gateway.NewSimulator(), checkout.Settings{
		TTL: time.Minute, Currency: "INR", Provider: "simulator", StoreState: "Karnataka", LowStockThreshold: 10,
	}, nil, d.Log)}
}

// captured is the captured payment of c, for its full amount.
func captured(c fixtures.Checkout) gateway.Payment {
	p := gateway.Payment{ID: "pay_" + uuid.NewString()[:8], Entity: "payment", Amount: int64(c.Total),
		Currency: c.Currency, Status: "captured", OrderID: c.IntentID, Method: "upi"}
	// The simulator and the Razorpay stub refund only payments they know.
	gateway.RegisterSimulatedPayment(gateway.SimPayment{ID: p.ID, Amount: c.Total, Captured: true})
	return p
}

func (e *env) session(t *testing.T, id uuid.UUID) models.CheckoutSession {
	t.Helper()
	var s models.CheckoutSession
	if err := e.d.DB.Take(&s, "id = ?", id).Error; err != nil {
		t.Fatal(err)
	}
	return s
}

func (e *env) variant(t *testing.T, id uuid.UUID) models.Variant {
	t.Helper()
	var v models.Variant
	if err := e.d.DB.Take(&v, "id = ?", id).Error; err != nil {
		t.Fatal(err)
	}
	return v
}

func (e *env) cart(t *testing.T, id uuid.UUID) (models.Cart, int64) {
	t.Helper()
	var c models.Cart
	if err := e.d.DB.Take(&c, "id = ?", id).Error; err != nil {
		t.Fatal(err)
	}
	var n int64
	e.d.DB.Model(&models.CartItem{}).Where("cart_id = ?", id).Count(&n)
	return c, n
}

func (e *env) count(t *testing.T, model any, where string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := e.d.DB.Model(model).Where(where, args...).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

func (e *env) eventTypes(t *testing.T) map[string]int {
	t.Helper()
	var evs []models.Event
	e.d.DB.Find(&evs)
	out := map[string]int{}
	for _, ev := range evs {
		out[ev.Type]++
	}
	return out
}
