package catalog

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/shopspring/decimal"
)

// Field rules shared by creates and patches. Each returns nil or a
// VALIDATION_ERROR naming the field by its JSON name.

// GSTRates are the GST slabs a product may carry, in hundredths of a percent
// (0, 0.25, 3, 5, 12, 18 and 28 %).
var GSTRates = []money.Rate{0, 25, 300, 500, 1200, 1800, 2800}

const (
	maxTitle       = 255
	maxName        = 255
	maxDescription = 20000
	maxSlug        = 120
	maxSKU         = 64
	maxShortText   = 100
	maxURL         = 2048
	// maxStock bounds one inventory figure or operation (the column is int4).
	maxStock = 1_000_000_000
)

var (
	hsnPattern  = regexp.MustCompile(`^([0-9]{4}|[0-9]{6}|[0-9]{8})$`)
	slugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
)

func checkRequiredText(field, s string, max int) error {
	n := utf8.RuneCountInString(s)
	switch {
	case strings.TrimSpace(s) == "":
		return apperr.Invalid(field, "is required")
	case n > max:
		return apperr.Invalid(field, fmt.Sprintf("must be at most %d characters", max))
	}
	return nil
}

func checkTitle(field, s string) error {
	if utf8.RuneCountInString(s) > maxTitle {
		return apperr.Invalid(field, "must be 1 to 255 characters")
	}
	if strings.TrimSpace(s) == "" {
		if s == "" {
			return apperr.Invalid(field, "is required")
		}
		return apperr.Invalid(field, "must not be blank")
	}
	return nil
}

func checkText(field, s string, max int) error {
	if utf8.RuneCountInString(s) > max {
		return apperr.Invalid(field, fmt.Sprintf("must be at most %d characters", max))
	}
	return nil
}

// checkPrice enforces that a price is greater than 0.
func checkPrice(field string, a money.Amount) error {
	if a <= 0 {
		return apperr.Invalid(field, "must be greater than 0")
	}
	return nil
}

// checkCompareAt requires a compare-at ("was") price at or above the price.
func checkCompareAt(field string, compareAt *money.Amount, price money.Amount) error {
	if compareAt == nil {
		return nil
	}
	if *compareAt <= 0 {
		return apperr.Invalid(field, "must be greater than 0")
	}
	if *compareAt < price {
		return apperr.Invalid(field, "must be greater than or equal to price ("+price.String()+")")
	}
	return nil
}

// CheckGSTRate accepts one of GSTRates, the slabs products and shipping
// methods may carry. Errors: VALIDATION_ERROR naming gstRate.
func CheckGSTRate(r money.Rate) error {
	for _, ok := range GSTRates {
		if r == ok {
			return nil
		}
	}
	return apperr.Invalid("gstRate", "must be one of the GST slabs: 0, 0.25, 3, 5, 12, 18, 28")
}

// checkHSN accepts no code ("") or a 4, 6 or 8 digit HSN code.
func checkHSN(s string) error {
	if s != "" && !hsnPattern.MatchString(s) {
		return apperr.Invalid("hsnCode", "must be 4, 6 or 8 digits")
	}
	return nil
}

// checkSlug accepts an explicit slug: lower-case letters, digits and single
// hyphens.
func checkSlug(s string) error {
	switch {
	case len(s) > maxSlug:
		return apperr.Invalid("slug", fmt.Sprintf("must be at most %d characters", maxSlug))
	case !slugPattern.MatchString(s):
		return apperr.Invalid("slug", "must be lower-case letters, digits and single hyphens")
	}
	return nil
}

func checkStock(field string, n int) error {
	if n < 0 || n > maxStock {
		return apperr.Invalid(field, fmt.Sprintf("must be an integer from 0 to %d", maxStock))
	}
	return nil
}

// checkWeight accepts a weight ≥ 0 with at most 3 decimals (numeric(12,3)).
func checkWeight(w *decimal.Decimal) error {
	if w == nil {
		return nil
	}
	switch {
	case w.IsNegative():
		return apperr.Invalid("weight", "must be at least 0")
	case !w.Equal(w.Truncate(3)):
		return apperr.Invalid("weight", "must have at most 3 decimal places")
	case w.GreaterThanOrEqual(decimal.New(1, 9)):
		return apperr.Invalid("weight", "must be less than 1000000000")
	}
	return nil
}

// checkImageURL accepts no URL or an absolute http(s) URL.
func checkImageURL(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(s) > maxURL {
		return apperr.Invalid("imageUrl", "must be an absolute http or https URL")
	}
	return nil
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
