// Package uqc is the GST system's Unit Quantity Codes (UQC): the unit a
// good's quantity is stated in on tax invoices, e-invoices and GSTR-1's HSN
// summary, as the GST portal lists them (code and description).
package uqc

import (
	"slices"
	"strings"
)

// Default is the unit of goods counted in pieces without a unit of their own.
const Default = "NOS"

// names are the GST portal's UQC list.
var names = map[string]string{
	"BAG": "BAGS", "BAL": "BALE", "BDL": "BUNDLES", "BKL": "BUCKLES", "BOU": "BILLION OF UNITS", "BOX": "BOX",
	"BTL": "BOTTLES", "BUN": "BUNCHES", "CAN": "CANS", "CBM": "CUBIC METERS", "CCM": "CUBIC CENTIMETERS",
	"CMS": "CENTIMETERS", "CTN": "CARTONS", "DOZ": "DOZENS", "DRM": "DRUMS", "GGK": "GREAT GROSS", "GMS": "GRAMMES",
	"GRS": "GROSS", "GYD": "GROSS YARDS", "KGS": "KILOGRAMS", "KLR": "KILOLITRE", "KME": "KILOMETRE", "LTR": "LITRES",
	"MLT": "MILILITRE", "MTR": "METERS", "MTS": "METRIC TON", "NOS": "NUMBERS", "OTH": "OTHERS", "PAC": "PACKS",
	"PCS": "PIECES", "PRS": "PAIRS", "QTL": "QUINTAL", "ROL": "ROLLS", "SET": "SETS", "SQF": "SQUARE FEET",
	"SQM": "SQUARE METERS", "SQY": "SQUARE YARDS", "TBS": "TABLETS", "TGM": "TEN GROSS", "THD": "THOUSANDS",
	"TON": "TONNES", "TUB": "TUBES", "UGS": "US GALLONS", "UNT": "UNITS", "YDS": "YARDS",
}

// Valid reports whether code is a UQC.
func Valid(code string) bool {
	_, ok := names[code]
	return ok
}

// Label is code as the GST offline tool writes it, "NOS-NUMBERS"; a code
// of no known unit (NA, a service's) stays as it is.
func Label(code string) string {
	if n, ok := names[code]; ok {
		return code + "-" + n
	}
	return code
}

// Unit is a UQC with its description, as a form offers it.
type Unit struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// Units lists every UQC, by code.
func Units() []Unit {
	out := make([]Unit, 0, len(names))
	for code, name := range names {
		out = append(out, Unit{Code: code, Name: name})
	}
	slices.SortFunc(out, func(a, b Unit) int { return strings.Compare(a.Code, b.Code) })
	return out
}
