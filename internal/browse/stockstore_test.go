package browse

import (
	"encoding/json"
	"testing"

	"github.com/google/uuid"
)

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

// A page survives the cache's JSON round trip, and availability is laid in
// at the right places, including after a product without variants.
func TestPageRoundTrip(t *testing.T) {
	bare := Product{ProductInfo: ProductInfo{Title: `Quote "x" <b>`, Currency: "INR"}, Variants: []Variant{}}
	two := Product{ProductInfo: ProductInfo{Title: "Two"}, Variants: []Variant{
		{VariantInfo: VariantInfo{SKU: "A"}, Available: 3}, {VariantInfo: VariantInfo{SKU: "B"}, Available: 0}}}
	var parts []productParts
	for _, p := range []Product{bare, two} {
		pp, err := render(p)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, pp)
	}
	page := newPage([]uuid.UUID{uuid.New(), uuid.New()}, parts, true, 7)
	raw, err := json.Marshal(page)
	if err != nil {
		t.Fatal(err)
	}
	var back Page
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if back.Total != 7 || back.Len() != 2 || back.avail[1][0] != 0 {
		t.Fatalf("round trip: %+v", back)
	}
	back.avail[1] = []int{5, 1}
	var got []Product
	if err := json.Unmarshal(back.AppendJSON(nil), &got); err != nil {
		t.Fatalf("%v in %s", err, back.AppendJSON(nil))
	}
	if got[0].Title != bare.Title || got[0].Available != 0 || got[0].InStock || got[1].Available != 6 || !got[1].InStock ||
		got[1].Variants[0].Available != 5 || got[1].Variants[1].Available != 1 || got[1].Variants[1].SKU != "B" {
		t.Fatalf("decoded: %+v", got)
	}
}
