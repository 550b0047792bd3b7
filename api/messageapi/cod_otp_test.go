package messageapi_test

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/testkit"
)

// askCode sends POST /cart/cod-otp for phone and returns the code the
// simulator received (the n-th message to phone).
func (s *shop) askCode(t *testing.T, phone string, n int) string {
	t.Helper()
	s.Do(t, http.MethodPost, "/cart/cod-otp", testkit.Req{Body: map[string]any{"phone": phone}}).Expect(t, http.StatusAccepted)
	recs := s.waitSim(t, phone, n)
	r := recs[n-1]
	if r.Template != "cod_otp" || len(r.Variables) != 2 || len(r.Variables[0]) != 6 || r.Variables[1] != "5" {
		t.Fatalf("code message %+v", r)
	}
	return r.Variables[0]
}

// With COD confirmed by OTP, a COD checkout takes the code sent to its
// phone once: none, a wrong one (three times spends it), one for another
// phone, an expired one and a used one are 400 naming codOtp; the code
// leaves no usable copy in the messages table; the route is rate-limited
// per phone and per client address.
func TestCODCheckoutTakesTheOTPOnce(t *testing.T) {
	s := newShop(t, true, func(c *config.Config) { c.CODOTPPhoneLimit, c.CODOTPAddressLimit = 4, 7 })
	s.paymentSettings(t, map[string]any{"confirmation": "otp"})
	s.messageSettings(t, map[string]any{messaging.EventCODOTP: demoEvent(messaging.EventCODOTP, "sms")})
	var offset atomic.Int64
	s.CODOTPs.WithClock(func() time.Time { return time.Now().UTC().Add(time.Duration(offset.Load())) })
	p := testkit.MustStoreProduct(t, s.DB, testkit.StoreProduct{Price: 50000, Variants: []testkit.StoreVariant{{Inventory: 20}}})
	v := p.Variants[0].ID
	phone, other := uniquePhone(), uniquePhone()

	s.guestCOD(t, v, 1, phone, nil).ExpectField(t, "codOtp")
	code := s.askCode(t, phone, 1)
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	for i := 0; i < 3; i++ {
		s.guestCOD(t, v, 1, phone, map[string]any{"codOtp": wrong}).ExpectField(t, "codOtp")
	}
	s.guestCOD(t, v, 1, phone, map[string]any{"codOtp": code}).ExpectField(t, "codOtp") // spent by three wrong tries

	code = s.askCode(t, phone, 2)
	s.guestCOD(t, v, 1, other, map[string]any{"codOtp": code}).ExpectField(t, "codOtp") // sent to another phone
	var o order
	s.guestCOD(t, v, 1, phone, map[string]any{"codOtp": code}).Expect(t, http.StatusCreated).JSON(t, &o)
	if o.Status != "confirmed" {
		t.Fatalf("order %+v", o)
	}
	s.guestCOD(t, v, 1, phone, map[string]any{"codOtp": code}).ExpectField(t, "codOtp") // used
	if n := count(t, s, `SELECT count(*) FROM messages WHERE event = 'codOtp' AND variables::text LIKE ?`, "%"+code+"%"); n != 0 {
		t.Fatal("a sent code is kept in the messages table")
	}

	code = s.askCode(t, phone, 3)
	offset.Store(int64(5*time.Minute + time.Second))
	s.guestCOD(t, v, 1, phone, map[string]any{"codOtp": code}).ExpectField(t, "codOtp") // expired
	offset.Store(0)
	if n := count(t, s, `SELECT count(*) FROM orders`); n != 1 {
		t.Fatalf("%d orders", n)
	}

	// Four codes for phone in the window (three above): the fifth is refused.
	s.askCode(t, phone, 4)
	r := s.Do(t, http.MethodPost, "/cart/cod-otp", testkit.Req{Body: map[string]any{"phone": phone}})
	r.ExpectError(t, http.StatusTooManyRequests, "RATE_LIMITED")
	// Seven from this address (five above): the eighth is refused whatever the phone.
	s.askCode(t, other, 1)
	s.askCode(t, uniquePhone(), 1)
	s.Do(t, http.MethodPost, "/cart/cod-otp", testkit.Req{Body: map[string]any{"phone": uniquePhone()}}).
		ExpectError(t, http.StatusTooManyRequests, "RATE_LIMITED")
	s.Do(t, http.MethodPost, "/cart/cod-otp", testkit.Req{Body: map[string]any{"phone": "12"}}).ExpectField(t, "phone")
}
