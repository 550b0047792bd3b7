package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// MessagesSent counts the sends to the SMS and WhatsApp providers by
// channel and outcome (sent, refused, unavailable).
var MessagesSent = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "shop_messages_sent_total",
	Help: "Customer messages handed to the SMS and WhatsApp providers, by channel and outcome.",
}, []string{"channel", "outcome"})
