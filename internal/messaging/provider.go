// Package messaging sends the shop's messages to customers on SMS and
// WhatsApp (docs/DECISIONS.md "Customer messages and COD confirmation").
//
// provider.go declares what a channel's provider does; msg91.go and
// cloud.go are the real adapters (MSG91's Flow API for SMS, the WhatsApp
// Business Cloud API), and package messagingsim is the local simulator
// both are tested against. Every message is a row of the messages table
// (outbox.go) written with the change or event it reports, sent once by the
// worker and moved by the provider's receipts (receipts.go).
package messaging

import (
	"context"
	"errors"
)

// Channels.
const (
	SMS      = "sms"
	WhatsApp = "whatsapp"
)

// Provider names of SMS_PROVIDER and WHATSAPP_PROVIDER.
const (
	None      = "none"
	MSG91     = "msg91"
	Cloud     = "cloud"
	Simulator = "simulator"
)

// ErrRefused wraps a message the provider answered it will not send (an
// unregistered DLT template, an unknown WhatsApp template, a number that
// did not opt in): sending it again changes nothing, so it is failed.
var ErrRefused = errors.New("message refused by the provider")

// ErrUnavailable wraps a failure to reach the provider or read its answer:
// the message may or may not have gone out; it is sent again with the same
// reference.
var ErrUnavailable = errors.New("message provider unavailable")

// Outgoing is one message to send.
type Outgoing struct {
	// Ref is the shop's id of the message, sent with it as the idempotency
	// reference (MSG91's CRQID, the Cloud API's biz_opaque_callback_data)
	// and echoed in its receipts: a message sent again after a crash
	// carries the same one.
	Ref string
	// To is the phone in international form without "+", e.g. 919812345678.
	To string
	// Template is MSG91's template id (SMS) or the approved template's name
	// (WhatsApp).
	Template string
	// DLTTemplateID and SenderID are the SMS template's registration on the
	// DLT platform and its header (TRAI TCCCPR 2018): an SMS without them
	// is dropped by the operators.
	DLTTemplateID string
	SenderID      string
	// Language is a WhatsApp template's language code (en, en_US, hi).
	Language string
	// Variables fill the template's placeholders in order.
	Variables []string
}

// Provider sends the messages of one channel.
type Provider interface {
	// Channel is SMS or WhatsApp.
	Channel() string
	// Send hands m to the provider and returns the provider's id of it.
	// Errors wrap ErrRefused or ErrUnavailable.
	Send(ctx context.Context, m Outgoing) (providerRef string, err error)
}
