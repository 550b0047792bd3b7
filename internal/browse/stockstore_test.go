package browse

import "testing"

func TestStockEntryRoundTrip(t *testing.T) {
	raw := encodeEntry("17", []int{0, 12, 3})
	if raw != "17|0,12,3" {
		t.Fatalf("encoded %q", raw)
	}
	if got, ok := decodeEntry(raw, "17", 3); !ok || got[1] != 12 {
		t.Fatalf("decoded %v %v", got, ok)
	}
	for name, tc := range map[string]struct {
		raw, version string
		want         int
	}{
		"other catalog version": {raw, "18", 3},
		"variant count changed": {raw, "17", 4},
		"garbage":               {"17|a,b", "17", 2},
		"no separator":          {"17", "17", 0},
	} {
		if _, ok := decodeEntry(tc.raw, tc.version, tc.want); ok {
			t.Errorf("%s: accepted", name)
		}
	}
	if got, ok := decodeEntry(encodeEntry("3", nil), "3", 0); !ok || len(got) != 0 {
		t.Fatalf("a product without variants: %v %v", got, ok)
	}
}
