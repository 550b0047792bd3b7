package customer

import (
	"regexp"

	"github.com/gocommerce/shop/internal/apperr"
)

var phonePattern = regexp.MustCompile(`^\+?[0-9][0-9 ()-]{6,19}$`)

// CheckPhone validates a phone number given as field: digits with an
// optional leading +, spaces, hyphens and parentheses, 7 to 20 characters.
// The storefront and the back office hold phones to this one rule, so an
// administrator cannot store one the customer could not.
// Errors: VALIDATION_ERROR on field.
func CheckPhone(field, phone string, required bool) error {
	switch {
	case phone == "" && !required:
		return nil
	case phone == "":
		return apperr.Invalid(field, "is required")
	case !phonePattern.MatchString(phone):
		return apperr.Invalid(field, "must be a phone number of 7 to 20 digits, spaces, hyphens or parentheses, optionally starting with +")
	}
	return nil
}

// NormalizePhone is phone as a guest record of a phone order is keyed: an
// Indian number (ten digits, after a country code 91 and trunk 0s, as staff
// type them: "98401 23456", "+91 98401 23456", "09840123456") as
// +91XXXXXXXXXX, another as + and its digits; "" when it holds fewer than
// seven digits.
func NormalizePhone(phone string) string {
	var d []byte
	for i := 0; i < len(phone); i++ {
		if c := phone[i]; c >= '0' && c <= '9' {
			d = append(d, c)
		}
	}
	if len(d) < 7 {
		return ""
	}
	national := d
	if len(national) >= 12 && national[0] == '9' && national[1] == '1' {
		national = national[2:]
	}
	for len(national) > 10 && national[0] == '0' {
		national = national[1:]
	}
	if len(national) == 10 && national[0] != '0' {
		return "+91" + string(national)
	}
	return "+" + string(d)
}
