package webhooks

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
)

// SecretPrefix starts every signing secret (Standard Webhooks).
const SecretPrefix = "whsec_"

// NewSecret returns a fresh secret: whsec_ and the base64 of 32 random bytes.
func NewSecret() string {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		panic("webhooks: no randomness: " + err.Error())
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(key)
}

// SecretKey returns the HMAC key of a secret: the base64-decoded part after
// whsec_, 24 to 64 bytes as the scheme requires. Errors: VALIDATION_ERROR on
// `secret`.
func SecretKey(secret string) ([]byte, error) {
	enc, ok := strings.CutPrefix(secret, SecretPrefix)
	if !ok {
		return nil, invalidSecret()
	}
	key, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		if key, err = base64.RawStdEncoding.DecodeString(enc); err != nil {
			return nil, invalidSecret()
		}
	}
	if len(key) < 24 || len(key) > 64 {
		return nil, invalidSecret()
	}
	return key, nil
}

func invalidSecret() error {
	return apperr.Invalid("secret", "must be whsec_ followed by the base64 of 24 to 64 random bytes")
}

// Signature returns the webhook-signature header value for a message:
// "v1," and the base64 HMAC-SHA256, keyed with key, of
// "<msgID>.<timestamp>.<body>".
func Signature(key []byte, msgID string, timestamp int64, body []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(msgID))
	m.Write([]byte{'.'})
	m.Write([]byte(strconv.FormatInt(timestamp, 10)))
	m.Write([]byte{'.'})
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
}
