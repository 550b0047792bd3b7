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
