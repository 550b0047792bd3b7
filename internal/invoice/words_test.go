package invoice

import (
	"testing"

	"github.com/gocommerce/shop/internal/money"
)

func TestInWords(t *testing.T) {
	tests := []struct {
		paise money.Amount
		want  string
	}{
		{0, "Rupees Zero Only"},
		{5, "Rupees Zero and Five Paise Only"},
		{100, "Rupees One Only"},
		{49950, "Rupees Four Hundred Ninety Nine and Fifty Paise Only"},
		{1_00_000_00, "Rupees One Lakh Only"},
		{12_34_567_89, "Rupees Twelve Lakh Thirty Four Thousand Five Hundred Sixty Seven and Eighty Nine Paise Only"},
		{1_23_45_678_90, "Rupees One Crore Twenty Three Lakh Forty Five Thousand Six Hundred Seventy Eight and Ninety Paise Only"},
		{10_00_00_000_00, "Rupees Ten Crore Only"},
		{money.MaxAmount, "Rupees Ten Thousand Crore Only"},
		{11_01_00, "Rupees One Thousand One Hundred One Only"},
	}
	for _, tt := range tests {
		if got := InWords(tt.paise); got != tt.want {
			t.Errorf("InWords(%d) = %q, want %q", tt.paise, got, tt.want)
		}
	}
}
