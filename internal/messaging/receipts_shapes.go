package messaging

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// MSG91Report is one delivery report MSG91 posts to the shop's SMS receipt
// webhook (a JSON array of them): the request id the send answered, our
// CRQID, and each number's status ("1" delivered, "2" failed, "8" sent to
// the operator, "9" NDNC, "16"/"25" rejected, "17" blocked) and its text.
type MSG91Report struct {
	RequestID string              `json:"requestId"`
	CRQID     string              `json:"CRQID"`
	SenderID  string              `json:"senderId"`
	Report    []MSG91ReportNumber `json:"report"`
}

// MSG91ReportNumber is the status of one number of a request.
type MSG91ReportNumber struct {
	Number string `json:"number"`
	Status string `json:"status"`
	Desc   string `json:"desc"`
	Date   string `json:"date"`
}

// MSG91Inbound is a reply MSG91 forwards to the shop's inbound SMS webhook
// (a keyword on the sender's long code): the sender's number and the text.
type MSG91Inbound struct {
	Sender  string `json:"sender"`
	Message string `json:"message"`
}

// MSG91Status maps a report's status code to the message's status ("" when
// it says nothing new).
func MSG91Status(code, desc string) string {
	switch code {
	case "1":
		return StatusDelivered
	case "2", "9", "16", "17", "25", "26":
		return StatusFailed
	case "8":
		return StatusSent
	}
	switch strings.ToUpper(desc) {
	case "DELIVERED":
		return StatusDelivered
	case "FAILED", "REJECTED", "NDNC", "BLOCKED":
		return StatusFailed
	}
	return ""
}

// CloudWebhook is the body the Cloud API posts to the shop's WhatsApp
// webhook: statuses of messages sent (sent, delivered, read, failed) and
// messages received (a STOP reply).
type CloudWebhook struct {
	Object string       `json:"object"`
	Entry  []CloudEntry `json:"entry"`
}

// CloudEntry is one business account's changes.
type CloudEntry struct {
	ID      string        `json:"id"`
	Changes []CloudChange `json:"changes"`
}

// CloudChange is one change; field "messages" carries statuses and
// inbound messages.
type CloudChange struct {
	Field string     `json:"field"`
	Value CloudValue `json:"value"`
}

// CloudValue is a messages change.
type CloudValue struct {
	MessagingProduct string         `json:"messaging_product"`
	Statuses         []CloudStatus  `json:"statuses,omitempty"`
	Messages         []CloudInbound `json:"messages,omitempty"`
}

// CloudStatus is a sent message's new status.
type CloudStatus struct {
	ID                    string `json:"id"`
	Status                string `json:"status"`
	Timestamp             string `json:"timestamp"`
	RecipientID           string `json:"recipient_id"`
	BizOpaqueCallbackData string `json:"biz_opaque_callback_data,omitempty"`
}

// CloudInbound is a message a customer sent the business number.
type CloudInbound struct {
	From      string `json:"from"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Text      *struct {
		Body string `json:"body"`
	} `json:"text,omitempty"`
}

// SignatureHeader is the Cloud API's webhook signature header:
// "sha256=" and the hex HMAC-SHA256 of the body under the app secret.
const SignatureHeader = "X-Hub-Signature-256"

// Sign is the SignatureHeader value of body under secret.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// ValidSignature reports whether header is body's signature under secret.
func ValidSignature(secret string, body []byte, header string) bool {
	if secret == "" {
		return false
	}
	return hmac.Equal([]byte(Sign(secret, body)), []byte(header))
}

// IsStop reports whether an inbound text asks to stop messages (STOP,
// UNSUBSCRIBE, STOP ALL ...), as the DLT rules and WhatsApp's policy want
// honoured.
func IsStop(text string) bool {
	w := strings.Fields(strings.ToUpper(text))
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "STOP", "UNSUBSCRIBE", "STOPALL", "OPTOUT", "CANCEL":
		return true
	}
	return false
}
