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

// GSTRates are the GST rates a product may carry, in hundredths of a
// percent: the schedule in force since 22 September 2025 (0, 0.25, 1.5, 3,
// 5, 18 and 40 %, notification 9/2025-Central Tax (Rate)) and 12 and 28 %,
// which remain for goods the reform left there and for history.
var GSTRates = []money.Rate{0, 25, 150, 300, 500, 1200, 1800, 2800, 4000}

// maxCessRate bounds a compensation cess rate (the highest ad valorem
// rate of the cess schedule is 290 %).
const maxCessRate money.Rate = 29000

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
	return apperr.Invalid("gstRate", "must be one of the GST rates: 0, 0.25, 1.5, 3, 5, 12, 18, 28, 40")
}

// checkCessRate accepts a compensation cess rate from 0 to 290 %.
func checkCessRate(r money.Rate) error {
	if r < 0 || r > maxCessRate {
		return apperr.Invalid("cessRate", "must be a percent from 0 to "+maxCessRate.String())
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
