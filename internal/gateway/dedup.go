package gateway

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// DedupKey names an event for duplicate detection (API-DECISIONS 9): its
// `id`, else the gateway's event-id header, else a hash of the event name,
// the payment id and `created_at`, so that two different events of the same
// second are both processed while a re-delivery of one is not.
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
