package messaging

import (
	"errors"

	"github.com/gocommerce/shop/internal/metrics"
)

func isRefused(err error) bool { return errors.Is(err, ErrRefused) }

// observeSend counts one send's outcome.
func observeSend(channel string, err error) {
	outcome := "sent"
	switch {
	case err == nil:
	case isRefused(err):
		outcome = "refused"
	default:
		outcome = "unavailable"
	}
	metrics.MessagesSent.WithLabelValues(channel, outcome).Inc()
}
