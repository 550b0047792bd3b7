package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// DuplicatePaymentsRefunded counts captured payments refunded because
// another checkout session of the same cart's purchase had already become
// the order (one cart pays once).
var DuplicatePaymentsRefunded = promauto.NewCounter(prometheus.CounterOpts{
	Name: "checkout_duplicate_payment_refunded_total",
	Help: "Captured payments refunded in full because the same cart's purchase was already paid by another checkout session.",
})
