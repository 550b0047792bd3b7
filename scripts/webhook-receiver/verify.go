package main

import (
	"crypto/hmac"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/webhooks"
)

// tolerance is how far a delivery's timestamp may be from now, as the
// Standard Webhooks scheme recommends: an older one is a replay.
const tolerance = 5 * time.Minute

// verify reports whether one of the delivery's v1 signatures is the HMAC of
// its id, timestamp and body under key, with a timestamp within tolerance.
func verify(key []byte, h http.Header, body []byte) (bool, error) {
	id, ts := h.Get("webhook-id"), h.Get("webhook-timestamp")
	sec, err := strconv.ParseInt(ts, 10, 64)
	if id == "" || err != nil {
		return false, errors.New("missing webhook-id or webhook-timestamp")
	}
	if d := time.Since(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return false, errors.New("timestamp outside 5 minutes")
	}
	want := webhooks.Signature(key, id, sec, body)
	for _, sig := range strings.Fields(h.Get("webhook-signature")) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return true, nil
		}
	}
	return false, errors.New("no matching v1 signature")
}
