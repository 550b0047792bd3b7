package metrics

import (
	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"
)

// queueTasks describes the tasks in each asynq queue by state.
var queueTasks = prometheus.NewDesc("asynq_queue_tasks",
	"Tasks in an asynq queue by state (pending, active, scheduled, retry, archived), read from Redis at scrape time.",
	[]string{"queue", "state"}, nil)

// QueueCollector reports the depth of the task queues at each scrape, so an
// operator (or an autoscaler reading Prometheus) sees a backlog grow before
// customers do. It reads Redis only when scraped.
type QueueCollector struct {
	inspector *asynq.Inspector
	queues    []string
}

// NewQueueCollector reports queues through inspector.
func NewQueueCollector(inspector *asynq.Inspector, queues []string) *QueueCollector {
	return &QueueCollector{inspector: inspector, queues: queues}
}

// Describe implements prometheus.Collector.
func (c *QueueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- queueTasks }

// Collect implements prometheus.Collector. A queue that cannot be read (Redis
// down, or a queue that has never held a task) is left out of the scrape
// rather than failing it.
func (c *QueueCollector) Collect(ch chan<- prometheus.Metric) {
	// The inspector takes no context: the Redis client's read timeout
	// (internal/app) bounds each read.
	for _, q := range c.queues {
		info, err := c.inspector.GetQueueInfo(q)
		if err != nil {
			continue
		}
		for state, n := range map[string]int{"pending": info.Pending, "active": info.Active,
			"scheduled": info.Scheduled, "retry": info.Retry, "archived": info.Archived} {
			ch <- prometheus.MustNewConstMetric(queueTasks, prometheus.GaugeValue, float64(n), q, state)
		}
	}
}
