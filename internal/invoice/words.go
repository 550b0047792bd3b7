package invoice

import (
	"strings"

	"github.com/gocommerce/shop/internal/money"
)

var ones = []string{"", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven",
	"Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen"}

var tens = []string{"", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"}

// InWords spells amount in rupees and paise with the Indian numbering
// system (thousand, lakh, crore): 12345678.9 is "Rupees One Crore Twenty
// Three Lakh Forty Five Thousand Six Hundred Seventy Eight and Ninety
// Paise Only". Amounts of a crore of crores or more repeat "Crore".
func InWords(a money.Amount) string {
	if a < 0 {
		return "Minus " + InWords(-a)
	}
	rupees, paise := int64(a)/100, int64(a)%100
	var b strings.Builder
	b.WriteString("Rupees ")
	if rupees == 0 {
		b.WriteString("Zero")
	} else {
		b.WriteString(indian(rupees))
	}
	if paise > 0 {
		b.WriteString(" and " + belowHundred(paise) + " Paise")
	}
	b.WriteString(" Only")
	return b.String()
}

// indian spells n > 0: the crores (themselves spelt the Indian way), then
// lakhs, thousands, hundreds and the rest.
func indian(n int64) string {
	var parts []string
	if crores := n / 1_00_00_000; crores > 0 {
		parts = append(parts, indian(crores)+" Crore")
		n %= 1_00_00_000
	}
	for _, u := range []struct {
		size int64
		name string
	}{{1_00_000, "Lakh"}, {1_000, "Thousand"}, {100, "Hundred"}} {
		if q := n / u.size; q > 0 {
			parts = append(parts, belowHundred(q)+" "+u.name)
			n %= u.size
		}
	}
	if n > 0 {
		parts = append(parts, belowHundred(n))
	}
	return strings.Join(parts, " ")
}

func belowHundred(n int64) string {
	if n < 20 {
		return ones[n]
	}
	if n%10 == 0 {
		return tens[n/10]
	}
	return tens[n/10] + " " + ones[n%10]
}
