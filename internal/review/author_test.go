package review

import "testing"

func TestPublicName(t *testing.T) {
	tests := []struct{ name, full, want string }{
		{"first and last", "Priya Sharma", "Priya S."},
		{"middle names dropped", "Priya Devi Sharma", "Priya S."},
		{"single word", "Priya", "Priya"},
		{"empty", "", ""},
		{"blank", "   \t ", ""},
		{"extra spaces", "  Priya   Sharma  ", "Priya S."},
		{"lower-case surname", "anil kumar", "anil K."},
		{"accented initial", "José Álvarez", "José Á."},
		{"decomposed accent keeps its mark", "Jose A\u0301lvarez", "Jose A\u0301."},
		{"devanagari", "प्रिया शर्मा", "प्रिया श."},
		{"tamil vowel sign stays", "Kumar கொ", "Kumar கொ."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PublicName(tt.full); got != tt.want {
				t.Fatalf("PublicName(%q) = %q, want %q", tt.full, got, tt.want)
			}
		})
	}
}
