package gstportal

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// calls times the calls to the GST portal by operation and outcome (ok,
// refused, error).
var calls = promauto.NewHistogramVec(prometheus.HistogramOpts{
	Name:    "gst_portal_call_duration_seconds",
	Help:    "Calls to the GST portal (IRP, e-way bill system) by operation and outcome, in seconds.",
	Buckets: prometheus.DefBuckets,
}, []string{"op", "outcome"})

func observe(op, outcome string, d time.Duration) {
	calls.WithLabelValues(op, outcome).Observe(d.Seconds())
}
