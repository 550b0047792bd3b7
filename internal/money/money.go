// Package money holds amounts as integer minor units (paise) and converts them
// to and from the JSON numbers of the API without ever using floating point.
package money

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Amount is a sum of money in minor units of the store currency (paise for INR).
type Amount int64

// MaxAmount bounds every amount the API accepts (10^11 major units). Sums of
// legal amounts stay far inside int64 (a cart of 100 lines × 1000 units at
// MaxAmount is 10^18 paise); products of two of them do not, which is why
// MulDivHalfUp multiplies in 128 bits.
const MaxAmount Amount = 100_000_000_000_00

// ErrFormat matches (errors.Is) every error of a refused amount or rate: not
// a number, more than two decimals, an exponent, or a magnitude above
// MaxAmount. The error itself is a *FormatError saying which.
var ErrFormat = errors.New("money: not an amount")

// FormatError is why a JSON number was refused as an amount or a rate. Its
// text is the issue an API client is shown ("must have at most 2 decimal
// places"), so it names the one thing wrong with the value.
type FormatError struct{ issue string }

func (e *FormatError) Error() string { return e.issue }

// Is makes every FormatError match ErrFormat.
func (e *FormatError) Is(target error) bool { return target == ErrFormat }

var (
	errNotNumber = &FormatError{"must be a number"}
	errString    = &FormatError{"must be a JSON number, not a string"}
	errExponent  = &FormatError{"must be written without an exponent (1000, not 1e3)"}
	errPrecision = &FormatError{"must have at most 2 decimal places"}
	errTooLarge  = &FormatError{"must be at most " + MaxAmount.String()}
	errTooSmall  = &FormatError{"must be at least -" + MaxAmount.String()}
)

// FromMajor returns the amount for a whole number of major units.
func FromMajor(units int64) Amount { return Amount(units * 100) }

// String renders the amount as a decimal in major units: 49950 -> "499.5".
func (a Amount) String() string { return formatHundredths(int64(a)) }

// MarshalJSON renders the amount as a JSON number in major units.
func (a Amount) MarshalJSON() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalJSON parses a JSON number in major units with at most 2 decimals.
// null leaves the amount unchanged, as encoding/json does for other types,
// so that validation (not parsing) reports a missing required amount.
func (a *Amount) UnmarshalJSON(b []byte) error { return unmarshalHundredths(b, a) }

// Value stores the amount as a bigint.
func (a Amount) Value() (driver.Value, error) { return int64(a), nil }

// Scan reads a bigint column.
func (a *Amount) Scan(src any) error {
	switch v := src.(type) {
	case int64:
		*a = Amount(v)
	case nil:
		*a = 0
	default:
		return fmt.Errorf("money: cannot scan %T", src)
	}
	return nil
}

// Parse parses a decimal string in major units ("499.50") into an amount.
func Parse(s string) (Amount, error) {
	v, err := parseHundredths(s)
	return Amount(v), err
}

// MulDivHalfUp returns a*num/den rounded half away from zero, exactly: the
// product is formed in 128 bits, so a line total in the legal range (up to
// 1000 units at MaxAmount) times a rate or another amount cannot wrap. den
// must be > 0. The result fits whenever |num| ≤ den; a result beyond int64
// (only possible with |num| > den) panics rather than return a wrong amount.
func MulDivHalfUp(a Amount, num, den int64) Amount {
	if den <= 0 {
		panic("money.MulDivHalfUp: den must be > 0")
	}
	neg := (a < 0) != (num < 0)
	limit := uint64(math.MaxInt64)
	if neg {
		limit++ // -2^63 is representable
	}
	const overflow = "money.MulDivHalfUp: result overflows int64"
	hi, lo := bits.Mul64(magnitude(int64(a)), magnitude(num))
	if hi >= uint64(den) { // quotient ≥ 2^64; Div64 would panic less helpfully
		panic(overflow)
	}
	q, r := bits.Div64(hi, lo, uint64(den))
	if 2*r >= uint64(den) && q <= limit { // r < den ≤ 2^63: 2r cannot wrap; q ≤ 2^63: q+1 cannot
		q++
	}
	if q > limit {
		panic(overflow)
	}
	if neg {
		return Amount(-int64(q)) // q = 2^63 converts to math.MinInt64, which negates to itself
	}
	return Amount(q)
}

// magnitude is |v| as a uint64; it is exact for math.MinInt64 too.
func magnitude(v int64) uint64 {
	if v < 0 {
		return uint64(-(v + 1)) + 1
	}
	return uint64(v)
}

// Percent returns pct (in hundredths of a percent, 1250 = 12.5 %) of a,
// rounded to the paisa half up.
func (a Amount) Percent(pct Rate) Amount { return MulDivHalfUp(a, int64(pct), 10000) }

// IncludedTax returns the tax contained in a tax-inclusive gross amount at rate
// (GST on Indian retail prices): gross * r / (100 % + r), rounded half up.
// gross - IncludedTax(gross, r) is the net amount, so net + tax == gross exactly.
func IncludedTax(gross Amount, r Rate) Amount {
	if r <= 0 {
		return 0
	}
	return MulDivHalfUp(gross, int64(r), 10000+int64(r))
}

// Min returns the smaller of a and b.
func Min(a, b Amount) Amount {
	if a < b {
		return a
	}
	return b
}

// Rate is a percentage in hundredths of a percent (basis points): 1800 = 18 %.
type Rate int64

// String renders the rate as a percent decimal: 25 -> "0.25".
func (r Rate) String() string { return formatHundredths(int64(r)) }

// MarshalJSON renders the rate as a JSON number of percent.
func (r Rate) MarshalJSON() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalJSON parses a JSON number of percent with at most 2 decimals;
// null leaves the rate unchanged.
func (r *Rate) UnmarshalJSON(b []byte) error { return unmarshalHundredths(b, r) }

// unmarshalHundredths parses the JSON number b, with at most 2 decimals,
// into dst in hundredths; null leaves dst unchanged.
func unmarshalHundredths[T ~int64](b []byte, dst *T) error {
	if string(b) == "null" {
		return nil
	}
	v, err := parseHundredths(string(b))
	if err != nil {
		return err
	}
	*dst = T(v)
	return nil
}

func formatHundredths(v int64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	whole, frac := v/100, v%100
	switch {
	case frac == 0:
		return sign + strconv.FormatInt(whole, 10)
	case frac%10 == 0:
		return fmt.Sprintf("%s%d.%d", sign, whole, frac/10)
	default:
		return fmt.Sprintf("%s%d.%02d", sign, whole, frac)
	}
}

// parseHundredths parses a JSON number text into hundredths, exactly.
// Trailing zeros beyond two decimals are accepted ("1.500"); anything else
// with more precision, an exponent, or a value beyond MaxAmount is refused
// with a *FormatError naming which.
func parseHundredths(s string) (int64, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "" || s == "null":
		return 0, errNotNumber
	case s[0] == '"':
		return 0, errString
	}
	neg := false
	if s[0] == '-' {
		neg, s = true, s[1:]
	}
	mantissa, _, hasExp := strings.Cut(strings.ToLower(s), "e")
	whole, frac, hasDot := strings.Cut(mantissa, ".")
	if whole == "" || !allDigits(whole) || (hasDot && (frac == "" || !allDigits(frac))) {
		return 0, errNotNumber
	}
	if hasExp {
		return 0, errExponent
	}
	frac = strings.TrimRight(frac, "0")
	if len(frac) > 2 {
		return 0, errPrecision
	}
	for len(frac) < 2 {
		frac += "0"
	}
	whole = strings.TrimLeft(whole, "0")
	tooBig := errTooLarge
	if neg {
		tooBig = errTooSmall
	}
	if len(whole) > 12 {
		return 0, tooBig
	}
	w, _ := strconv.ParseInt("0"+whole, 10, 64)
	f, _ := strconv.ParseInt(frac, 10, 64)
	v := w*100 + f
	if v > int64(MaxAmount) {
		return 0, tooBig
	}
	if neg {
		v = -v
	}
	return v, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// IncludedGST returns the GST and the compensation cess contained in a
// GST-inclusive gross amount at GST rate r and cess rate c. The taxable
// value is gross / (1 + r + c); CGST and SGST are each that value at half
// of r, rounded half up to the paisa, so gst is always twice one half (an
// even number of paise) and the halves are equal whichever paisa rounding
// gives; the cess is the taxable value at c, rounded half up. The taxable
// value left is gross − gst − cess (docs/DECISIONS.md "GST split").
func IncludedGST(gross Amount, r, c Rate) (gst, cess Amount) {
	if r < 0 {
		r = 0
	}
	if c < 0 {
		c = 0
	}
	den := 10000 + int64(r) + int64(c)
	if r > 0 {
		gst = 2 * MulDivHalfUp(gross, int64(r), 2*den)
	}
	if c > 0 {
		cess = MulDivHalfUp(gross, int64(c), den)
	}
	return gst, cess
}

// SplitGST divides GST tax into CGST and SGST within a state (intra) or
// IGST across states. tax made by IncludedGST (or a sum of such) is even,
// so the halves are equal; an odd tax of a row written before that rule
// gives its odd paisa to SGST.
func SplitGST(tax Amount, intra bool) (cgst, sgst, igst Amount) {
	if !intra {
		return 0, 0, tax
	}
	cgst = tax / 2
	return cgst, tax - cgst, 0
}
