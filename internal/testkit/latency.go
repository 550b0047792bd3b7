package testkit

import (
	"slices"
	"testing"
	"time"
)

// ReportLatencies reports the p50 and p99 of times (sorted in place) as b's
// metrics prefix+"p50-ms" and prefix+"p99-ms"; nothing when times is empty.
// Benchmarks that time each request of several clients report with it.
func ReportLatencies(b *testing.B, prefix string, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	slices.Sort(times)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(times[len(times)*99/100]), prefix+"p99-ms")
	b.ReportMetric(ms(times[len(times)/2]), prefix+"p50-ms")
}
