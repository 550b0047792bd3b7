package region

import "testing"

func TestEveryStateHasAGSTCode(t *testing.T) {
	seen := map[string]string{}
	for _, s := range States {
		code, ok := GSTCode(s)
		if !ok || len(code) != 2 {
			t.Fatalf("%s has no GST code", s)
		}
		if other, dup := seen[code]; dup {
			t.Fatalf("%s and %s share code %s", s, other, code)
		}
		seen[code] = s
	}
	if code, _ := GSTCode(" karnataka "); code != "29" {
		t.Fatalf("Karnataka code %q", code)
	}
	if !GSTCodeMatches("Dadra and Nagar Haveli and Daman and Diu", "25") || GSTCodeMatches("Kerala", "29") {
		t.Fatal("GSTCodeMatches")
	}
	if _, ok := GSTCode("Atlantis"); ok {
		t.Fatal("Atlantis has a code")
	}
}
