// Package gstin checks GST identification numbers: the 15-character
// pattern (state code, PAN, entity number, Z, check character), the
// check character of the GSTN algorithm (a Luhn mod 36 over the first 14
// characters), and that the state code is the state's.
package gstin

import (
	"regexp"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/region"
)

// alphabet is the GSTN check alphabet: a character's value is its index.
const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// pattern is a regular taxpayer's GSTIN: two digits of state, the PAN
// (five letters, four digits, a letter), the registration number within
// the PAN (1-9, A-Z), the letter Z, and the check character.
var pattern = regexp.MustCompile(`^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$`)

// Normalize upper-cases s and trims its spaces, as people type it.
func Normalize(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// CheckChar returns the check character of the first 14 characters of a
// GSTIN: each character's value, multiplied by 1 and 2 alternately, is
// folded into base 36 (quotient plus remainder) and summed; the check is
// what brings the sum to a multiple of 36.
func CheckChar(first14 string) byte {
	sum := 0
	for i := 0; i < 14 && i < len(first14); i++ {
		v := strings.IndexByte(alphabet, first14[i])
		if v < 0 {
			v = 0
		}
		p := v * (1 + i%2)
		sum += p/36 + p%36
	}
	return alphabet[(36-sum%36)%36]
}

// Check validates s (already normalized) as field: the pattern, the check
// character and, when state is not empty, that the state code is one of
// state's. Errors: VALIDATION_ERROR naming field.
func Check(field, s, state string) error {
	if len(s) != 15 {
		return apperr.Invalid(field, "must be 15 characters")
	}
	if !pattern.MatchString(s) {
		return apperr.Invalid(field, "is not a GSTIN: two digits of state code, the PAN, an entity number, Z and a check character")
	}
	if CheckChar(s[:14]) != s[14] {
		return apperr.Invalid(field, "has a wrong check character")
	}
	if _, ok := region.StateOfGSTCode(s[:2]); !ok {
		return apperr.Invalid(field, "starts with "+s[:2]+", which is not a GST state code")
	}
	if state != "" && !region.GSTCodeMatches(state, s[:2]) {
		code, _ := region.GSTCode(state)
		return apperr.Invalid(field, "starts with "+s[:2]+" but the state code of "+state+" is "+code)
	}
	return nil
}
