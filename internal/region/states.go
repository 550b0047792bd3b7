// Package region names the states and union territories of India: the one
// list that shipping zones are validated against and that the admin
// console's forms offer (served in /admin/settings.json).
package region

import "strings"

// States lists India's 28 states and 8 union territories by the names
// addresses use, in alphabetical order.
var States = []string{
	"Andaman and Nicobar Islands", "Andhra Pradesh", "Arunachal Pradesh", "Assam", "Bihar", "Chandigarh",
	"Chhattisgarh", "Dadra and Nagar Haveli and Daman and Diu", "Delhi", "Goa", "Gujarat", "Haryana",
	"Himachal Pradesh", "Jammu and Kashmir", "Jharkhand", "Karnataka", "Kerala", "Ladakh", "Lakshadweep",
	"Madhya Pradesh", "Maharashtra", "Manipur", "Meghalaya", "Mizoram", "Nagaland", "Odisha", "Puducherry",
	"Punjab", "Rajasthan", "Sikkim", "Tamil Nadu", "Telangana", "Tripura", "Uttar Pradesh", "Uttarakhand",
	"West Bengal",
}

var byKey = func() map[string]string {
	m := make(map[string]string, len(States))
	for _, s := range States {
		m[key(s)] = s
	}
	return m
}()

// key folds case and runs of space, as addresses are typed by people.
func key(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// Canonical returns the listed name of state s, matched ignoring case and
// extra spaces, and whether s is a state or union territory of India.
func Canonical(s string) (string, bool) {
	name, ok := byKey[key(s)]
	return name, ok
}
