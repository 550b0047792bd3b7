package customer

import "testing"

func TestNormalizePhone(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"national", "98401 23456", "+919840123456"},
		{"country code", "+91 98401 23456", "+919840123456"},
		{"trunk zero", "09840123456", "+919840123456"},
		{"country code and zero", "+91 0 98401 23456", "+919840123456"},
		{"dashes", "98401-23456", "+919840123456"},
		{"abroad", "+44 20 7946 0958", "+442079460958"},
		{"too short", "12345", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NormalizePhone(tt.in); got != tt.want {
				t.Fatalf("NormalizePhone(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
