package region

import "testing"

func TestCanonical(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"exact", "Karnataka", "Karnataka", true},
		{"case and spaces", "  tamil   NADU ", "Tamil Nadu", true},
		{"union territory", "ladakh", "Ladakh", true},
		{"unknown", "Atlantis", "", false},
		{"empty", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Canonical(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Fatalf("Canonical(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
	if len(States) != 36 {
		t.Fatalf("%d states and union territories, India has 36", len(States))
	}
}
