package review

import (
	"strings"
	"unicode"
)

// PublicName is how a review's author is shown to shoppers: the first word
// of the customer's name and the initial of the last ("Priya Sharma" →
// "Priya S."), so a public page does not publish anyone's full name. A
// one-word name is shown as it is and a blank one as "" (the storefront
// chooses its own placeholder). The initial keeps any combining marks that
// follow its first letter, so it is a whole character in every script.
func PublicName(full string) string {
	words := strings.Fields(full)
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return words[0] + " " + initial(words[len(words)-1]) + "."
}

// initial returns the first letter of word, upper-cased where the script
// has case, with the combining marks that belong to it.
func initial(word string) string {
	runes := []rune(word)
	n := 1
	for n < len(runes) && unicode.Is(unicode.M, runes[n]) {
		n++
	}
	return string(unicode.ToUpper(runes[0])) + string(runes[1:n])
}
