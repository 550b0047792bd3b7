package gateway

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// DedupKey names an event for duplicate detection (docs/WEBHOOKS.md "Inbound:
// the payment gateway"): its `id`, else the gateway's event-id header, else a
// hash of the event name, the payment id and `created_at`, so that two
// different events of the same second are both processed while a re-delivery
// of one is not.
func DedupKey(ev Event, headerEventID string) string {
	switch {
	case ev.ID != "":
		return "id:" + ev.ID
	case headerEventID != "":
		return "id:" + headerEventID
	}
	h := sha256.New()
	h.Write([]byte(ev.Name))
	h.Write([]byte{0})
	h.Write([]byte(ev.Payment.ID))
	h.Write([]byte{0})
	h.Write([]byte(strconv.FormatInt(ev.CreatedAt, 10)))
	return "h:" + hex.EncodeToString(h.Sum(nil))
}

// BodyKey names a request body for duplicate detection: the SHA-256 of the
// raw bytes. The signature covers the body only, so a replayed body is a
// duplicate whatever id header it comes with (X-Razorpay-Event-Id is not
// signed; real Razorpay bodies carry no id, so DedupKey alone would take a
// new header for a new event).
func BodyKey(body []byte) string {
	sum := sha256.Sum256(body)
	return "body:" + hex.EncodeToString(sum[:])
}
