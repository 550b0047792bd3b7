package database

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Slugify turns a name into a URL slug: accents dropped, lower case, words
// joined by single hyphens ("Décor & Home" → "decor-home").
func Slugify(s string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue // combining accent
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(unicode.ToLower(r))
		default:
			hyphen = true
		}
	}
	out := b.String()
	if len(out) > 100 {
		out = strings.TrimRight(out[:100], "-")
	}
	return out
}
