// Package metrics declares the service's Prometheus collectors, registered
// once on the default registry and served at GET /metrics.
package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// HTTPDuration is the request duration by method, route pattern and status.
var HTTPDuration = promauto.NewHistogramVec(prometheus.HistogramOpts{
	Name:    "http_request_duration_seconds",
	Help:    "HTTP request duration by method, route pattern and status code.",
	Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
}, []string{"method", "route", "status"})

// TasksProcessed counts worker task runs by type and outcome.
var TasksProcessed = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "worker_tasks_processed_total",
	Help: "Tasks run by the worker, by task type and outcome (ok, error).",
}, []string{"type", "outcome"})

// TaskDuration is the worker's task run time by type.
var TaskDuration = promauto.NewHistogramVec(prometheus.HistogramOpts{
	Name:    "worker_task_duration_seconds",
	Help:    "Task run time by task type.",
	Buckets: prometheus.DefBuckets,
}, []string{"type"})
