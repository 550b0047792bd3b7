package webhooks

import (
	"net"
	"net/http"
	"time"
)

// NewClient returns the HTTP client of deliveries: every connection passes
// guard's address check after DNS resolution, no proxy is used (it would
// hide the real target), redirects are not followed (a 3xx is a failed
// attempt), and a whole attempt is bounded by timeout (WEBHOOK_TIMEOUT).
func NewClient(guard Guard, timeout time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: min(timeout, 5*time.Second), KeepAlive: 30 * time.Second, Control: guard.DialControl}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   min(timeout, 5*time.Second),
		ResponseHeaderTimeout: timeout,
	}
	return &http.Client{
		Transport: transport,
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}
