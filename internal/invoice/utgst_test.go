package invoice

import "testing"

// A supplier in a Union Territory without a legislature labels its half
// UTGST; every other state, and a Union Territory with a legislature
// (Delhi 07, Puducherry 34, Jammu and Kashmir 01), SGST.
func TestSGSTLabel(t *testing.T) {
	for code, want := range map[string]string{"04": "UTGST", "38": "UTGST", "31": "UTGST", "35": "UTGST", "26": "UTGST",
		"25": "UTGST", "29": "SGST", "07": "SGST", "34": "SGST", "01": "SGST"} {
		if got := SGSTLabel(code + "AABCS1429B1ZX"); got != want {
			t.Errorf("SGSTLabel(%s…) = %s, want %s", code, got, want)
		}
	}
}
