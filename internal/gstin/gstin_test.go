package gstin

import (
	"testing"

	"github.com/gocommerce/shop/internal/apperr"
)

// Valid builds a GSTIN of state code code for PAN pan with its check character.
func valid(code, pan string) string {
	s := code + pan + "1Z"
	return s + string(CheckChar(s))
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name, in, state string
		ok              bool
	}{
		{"published example, Maharashtra", "27AAPFU0939F1ZV", "Maharashtra", true},
		{"Karnataka", valid("29", "AABCT3518Q"), "Karnataka", true},
		{"Tamil Nadu", valid("33", "AAACH7409R"), "Tamil Nadu", true},
		{"Delhi", valid("07", "AAGCS1234K"), "delhi", true},
		{"Daman and Diu's old code", valid("25", "AAGCS1234K"), "Dadra and Nagar Haveli and Daman and Diu", true},
		{"no state to match", valid("36", "AAGCS1234K"), "", true},
		{"changed check character", "27AAPFU0939F1ZW", "Maharashtra", false},
		{"a changed PAN letter fails the check", "27AAPFV0939F1ZV", "Maharashtra", false},
		{"state code of another state", valid("29", "AABCT3518Q"), "Kerala", false},
		{"not a state code", valid("99", "AABCT3518Q"), "", false},
		{"too short", "27AAPFU0939F1Z", "", false},
		{"lower case is not normalized here", "27aapfu0939f1zv", "", false},
		{"pattern", "27AAPF10939F1ZV", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check("gstin", tt.in, tt.state)
			if (err == nil) != tt.ok {
				t.Fatalf("Check(%q, %q) = %v, want ok %v", tt.in, tt.state, err, tt.ok)
			}
			if err != nil && apperr.CodeOf(err) != apperr.Validation {
				t.Fatalf("code %s", apperr.CodeOf(err))
			}
		})
	}
	if Normalize(" 27aapfu0939f1zv ") != "27AAPFU0939F1ZV" {
		t.Fatal("Normalize")
	}
}
