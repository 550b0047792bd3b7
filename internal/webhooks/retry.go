package webhooks

import (
	"math/rand/v2"
	"time"
)

// RetryPolicy spaces a delivery's attempts.
type RetryPolicy struct {
	// Base is the wait after the first failed attempt; each later wait doubles.
	Base time.Duration
	// Cap bounds one wait.
	Cap time.Duration
	// MaxAttempts is the number of attempts before the delivery fails.
	MaxAttempts int
	// Jitter spreads each wait by ± this fraction, so receivers coming back
	// from an outage are not hit by every retry at once.
	Jitter float64
}

// DefaultRetry waits 1, 2, 4 ... 256 minutes, then 8 h twice: 12 attempts,
// the last about 24.5 h after the first. The worker uses it; tests shorten it.
var DefaultRetry = RetryPolicy{Base: time.Minute, Cap: 8 * time.Hour, MaxAttempts: 12, Jitter: 0.2}

// Delay is the wait after failed attempt n (1-based).
func (p RetryPolicy) Delay(n int) time.Duration {
	d := p.Base
	for i := 1; i < n && d < p.Cap; i++ {
		d *= 2
	}
	d = min(d, p.Cap)
	if p.Jitter > 0 {
		spread := float64(d) * p.Jitter
		d += time.Duration(spread * (2*rand.Float64() - 1))
	}
	return max(d, 0)
}
