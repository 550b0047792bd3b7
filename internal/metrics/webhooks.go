package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// Gateway webhook collectors (docs/WEBHOOKS.md "Inbound: the payment gateway",
// Metrics). The event label is the event name for handled events, "other" for
// unhandled ones and "invalid" for requests refused before their event was
// known, so that a caller cannot grow the label set.

// WebhookReceived counts gateway webhook requests.
var WebhookReceived = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "webhook_received_total",
	Help: "Gateway webhook requests received, by event.",
}, []string{"event"})

// WebhookProcessed counts gateway events the worker processed successfully.
var WebhookProcessed = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "webhook_processed_total",
	Help: "Gateway webhook events processed by the worker, by event.",
}, []string{"event"})

// WebhookFailed counts refused requests (bad signature or shape), failed
// enqueues and failed worker runs.
var WebhookFailed = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "webhook_failed_total",
	Help: "Gateway webhook requests refused or failed, and worker runs that failed, by event.",
}, []string{"event"})

// WebhookDuration times the HTTP answer (stage "http") and the worker's
// processing (stage "worker"), in seconds.
var WebhookDuration = promauto.NewHistogramVec(prometheus.HistogramOpts{
	Name:    "webhook_processing_duration",
	Help:    "Gateway webhook processing time in seconds, by event and stage (http answer, worker run).",
	Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
}, []string{"event", "stage"})

// PaymentsNeedingReview counts captured payments that created no order and
// left their checkout session NEEDS_REVIEW, by reason.
var PaymentsNeedingReview = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "payments_needs_review_total",
	Help: "Captured payments that created no order (amount_mismatch, currency_mismatch, stock_unavailable).",
}, []string{"reason"})

// OutboundAttempts counts outbound webhook attempts by outcome (succeeded,
// retry, failed, disabled, blocked).
var OutboundAttempts = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "outbound_webhook_attempts_total",
	Help: "Outbound webhook delivery attempts by outcome.",
}, []string{"outcome"})

// OutboundDuration times outbound webhook HTTP attempts in seconds.
var OutboundDuration = promauto.NewHistogram(prometheus.HistogramOpts{
	Name:    "outbound_webhook_attempt_duration_seconds",
	Help:    "Outbound webhook attempt duration in seconds.",
	Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
})
