package gateway

import (
	"strings"
	"testing"
)

// Parse never panics, and what it accepts has the event's shape.
func FuzzParse(f *testing.F) {
	f.Add([]byte(BuildEvent(Simulated{Name: "payment.captured", EventID: "evt_1", OrderID: "order_1", Amount: 49950, Currency: "INR"})))
	f.Add([]byte(`{"event":"payment.failed","created_at":1,"payload":{"payment":{"entity":{}}}}`))
	f.Add([]byte(`{"event":"x"}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"event":"payment.captured","created_at":1e99}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		ev, err := Parse(body)
		if err != nil {
			return
		}
		if ev.Name == "" {
			t.Fatalf("accepted an event without a name: %q", body)
		}
		if Handled(ev.Name) && ev.HasPayment && ev.Payment.Amount < 0 {
			t.Fatalf("accepted a negative amount: %q", body)
		}
	})
}

// A body verifies with its own signature and with no other: a flipped
// character of the signature or of the body is refused, and nothing panics.
func FuzzVerify(f *testing.F) {
	f.Add("secret", []byte(`{"event":"payment.captured"}`), 3)
	f.Add("", []byte(``), 0)
	f.Fuzz(func(t *testing.T, secret string, body []byte, flip int) {
		sig := Sign(secret, body)
		if secret == "" { // not configured: nothing verifies
			if Verify(secret, body, sig) == nil {
				t.Fatal("verified without a secret")
			}
			return
		}
		if err := Verify(secret, body, sig); err != nil {
			t.Fatalf("own signature refused: %v", err)
		}
		if err := Verify(secret, body, strings.ToUpper(sig)+"0"); err == nil {
			t.Fatal("a longer signature was accepted")
		}
		b := []byte(sig)
		i := abs(flip) % len(b)
		b[i] = "0123456789abcdef"[(strings.IndexByte("0123456789abcdef", b[i])+1)%16]
		if err := Verify(secret, body, string(b)); err == nil {
			t.Fatal("a changed signature was accepted")
		}
		if len(body) > 0 {
			changed := append([]byte(nil), body...)
			changed[abs(flip)%len(changed)] ^= 1
			if err := Verify(secret, changed, sig); err == nil {
				t.Fatal("a changed body was accepted")
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		if n == -n { // math.MinInt
			return 0
		}
		return -n
	}
	return n
}
