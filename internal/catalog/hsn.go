package catalog

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/uqc"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// HSN codes and units (docs/DECISIONS.md "HSN codes and units"): an active
// goods product carries an HSN code of 4, 6 or 8 digits (6 or 8 once the
// tax settings say the turnover is above 5 crore, notification
// 78/2020-Central Tax); a service carries a SAC, 6 digits starting 99.
// Rows from before the rule keep working: the code is asked for when a
// product becomes active or its code changes, never by rewriting rows.

var sacPattern = regexp.MustCompile(`^99[0-9]{4}$`)

// hsnRule is what a code must look like under the store's tax settings.
type hsnRule struct{ above5Cr bool }

// loadHSNRule reads the turnover setting (no settings row: not above).
func loadHSNRule(tx *gorm.DB) (hsnRule, error) {
	var above []bool
	if err := tx.Raw(`SELECT turnover_above_5cr FROM tax_settings`).Scan(&above).Error; err != nil {
		return hsnRule{}, fmt.Errorf("catalog.hsn_rule: %w", err)
	}
	return hsnRule{above5Cr: len(above) > 0 && above[0]}, nil
}

// check accepts code for a product of status: any well-formed code or none
// for a draft or archived one, a well-formed code for an active one.
// Errors: VALIDATION_ERROR naming hsnCode.
func (r hsnRule) check(code, status string) error {
	switch {
	case code == "" && status == models.ProductActive:
		return apperr.Invalid("hsnCode", r.shape()+" is required for an active product")
	case code == "":
		return nil
	case strings.HasPrefix(code, "99"):
		if !sacPattern.MatchString(code) {
			return apperr.Invalid("hsnCode", "a service's SAC must be 6 digits starting 99")
		}
		return nil
	case !hsnPattern.MatchString(code):
		return apperr.Invalid("hsnCode", "must be "+r.shape())
	case r.above5Cr && len(code) == 4:
		return apperr.Invalid("hsnCode", "must be 6 or 8 digits: the tax settings say turnoverAbove5Cr")
	}
	return nil
}

func (r hsnRule) shape() string {
	if r.above5Cr {
		return "an HSN code of 6 or 8 digits (or a SAC starting 99)"
	}
	return "an HSN code of 4, 6 or 8 digits (or a SAC starting 99)"
}

// checkHSNShape is the part of the rule that needs no settings: the code
// is digits of an allowed length. Errors: VALIDATION_ERROR naming hsnCode.
func checkHSNShape(code string) error {
	return hsnRule{}.check(code, "")
}

// DefaultUnit is a product's unit when none is given.
const DefaultUnit = uqc.Default

// checkUnit accepts a GST unit quantity code. Errors: VALIDATION_ERROR
// naming unit.
func checkUnit(u string) error {
	if uqc.Valid(u) {
		return nil
	}
	return apperr.Invalid("unit", "must be a GST unit quantity code (UQC) such as NOS, PCS, PRS, SET, KGS, GMS, MTR, LTR, BOX, PAC or DOZ")
}
