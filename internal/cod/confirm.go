package cod

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"regexp"
	"slices"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/google/uuid"
)

// How a COD order is confirmed (CODSettings.Confirmation).
const (
	ConfirmNone = "none"
	// ConfirmOTP: the checkout takes a code sent to the buyer's phone.
	ConfirmOTP = "otp"
	// ConfirmLink: the order waits in pending_confirmation until the buyer
	// answers the link sent to the phone.
	ConfirmLink = "link"
)

var pincode = regexp.MustCompile(`^[1-9][0-9]{5}$`)

// maxBlocked bounds the blocked pincodes a store lists.
const maxBlocked = 5000

// checkConfirmation validates the confirmation settings and the blocked
// pincodes. Errors: VALIDATION_ERROR naming the field.
func (in *Settings) checkConfirmation() error {
	c := in.COD
	switch {
	case c.Confirmation != ConfirmNone && c.Confirmation != ConfirmOTP && c.Confirmation != ConfirmLink:
		return apperr.Invalid("cod.confirmation", "must be none, otp or link")
	case c.ConfirmAbove < 0:
		return apperr.Invalid("cod.confirmAbove", "must be 0 (every order) or a positive amount")
	case len(c.BlockedPincodes) > maxBlocked:
		return apperr.Invalid("cod.blockedPincodes", "must list at most 5000 pincodes")
	}
	for _, p := range c.BlockedPincodes {
		if !pincode.MatchString(p) {
			return apperr.Invalid("cod.blockedPincodes", "must list 6-digit Indian pincodes: "+p+" is not one")
		}
	}
	return nil
}

// normalPincodes trims, sorts and de-duplicates pincodes.
func normalPincodes(list []string) []string {
	out := make([]string, 0, len(list))
	for _, p := range list {
		out = append(out, strings.TrimSpace(p))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// blockedPincode reports whether COD is refused at pincode.
func blockedPincode(c CODSettings, pin string) bool {
	pin = strings.ReplaceAll(strings.TrimSpace(pin), " ", "")
	if pin == "" || len(c.BlockedPincodes) == 0 {
		return false
	}
	_, found := slices.BinarySearch(c.BlockedPincodes, pin)
	return found
}

// ConfirmToken is the token of order id's confirmation link: the order id
// and an HMAC of it under secret, so the link needs no row and cannot be
// made for another order.
func ConfirmToken(secret []byte, id uuid.UUID) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("cod-confirm:"))
	m.Write(id[:])
	return base64.RawURLEncoding.EncodeToString(append(id[:], m.Sum(nil)[:16]...))
}

// ParseConfirmToken returns the order id of a token ConfirmToken made
// under secret; false when it is not one.
func ParseConfirmToken(secret []byte, token string) (uuid.UUID, bool) {
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(b) != 32 {
		return uuid.Nil, false
	}
	id, err := uuid.FromBytes(b[:16])
	if err != nil {
		return uuid.Nil, false
	}
	want, _ := base64.RawURLEncoding.DecodeString(ConfirmToken(secret, id))
	return id, hmac.Equal(want, b)
}
