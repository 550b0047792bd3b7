package gateway

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"

	"github.com/gocommerce/shop/internal/apperr"
)

// Signature headers: the generic one and the gateway's branded one
// (docs/WEBHOOKS.md "Inbound: the payment gateway").
const (
	SignatureHeader       = "X-Gateway-Signature"
	RazorpaySignature     = "X-Razorpay-Signature"
	RazorpayEventIDHeader = "X-Razorpay-Event-Id"
)

// ErrNotConfigured is the 400 answered while GATEWAY_WEBHOOK_SECRET is unset.
var ErrNotConfigured = apperr.New(apperr.Validation, "Gateway webhook secret is not configured (GATEWAY_WEBHOOK_SECRET)")

// ErrBadSignature is the 400 answered for a missing or wrong signature.
var ErrBadSignature = apperr.New(apperr.Validation, "Invalid webhook signature")

// Sign returns the lowercase hex HMAC-SHA256 of body keyed with secret.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Verify checks signature (hex) against the HMAC of the raw body in constant
// time. Errors: ErrNotConfigured, ErrBadSignature.
func Verify(secret string, body []byte, signature string) error {
	if secret == "" {
		return ErrNotConfigured
	}
	got, err := hex.DecodeString(signature)
	if err != nil || len(got) != sha256.Size {
		return ErrBadSignature
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	if !hmac.Equal(got, m.Sum(nil)) {
		return ErrBadSignature
	}
	return nil
}

// IsSignatureError reports whether err is one of Verify's errors.
func IsSignatureError(err error) bool {
	return errors.Is(err, ErrNotConfigured) || errors.Is(err, ErrBadSignature)
}
