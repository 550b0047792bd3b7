package stock_test

import (
	"reflect"
	"testing"

	"github.com/gocommerce/shop/internal/stock"
	"github.com/google/uuid"
)

func TestReleasesKeepWhatTheLineStillNeeds(t *testing.T) {
	a, b := uuid.MustParse("00000000-0000-0000-0000-00000000000a"), uuid.MustParse("00000000-0000-0000-0000-00000000000b")
	l1, l2 := uuid.MustParse("00000000-0000-0000-0000-000000000001"), uuid.MustParse("00000000-0000-0000-0000-000000000002")
	loc1, loc2 := uuid.MustParse("10000000-0000-0000-0000-000000000001"), uuid.MustParse("20000000-0000-0000-0000-000000000002")
	holds := []stock.Hold{
		{OrderItemID: a, LocationID: loc1, VariantID: l1, Quantity: 2},
		{OrderItemID: a, LocationID: loc2, VariantID: l1, Quantity: 1},
		{OrderItemID: b, LocationID: loc1, VariantID: l2, Quantity: 4},
	}
	rel := func(item, loc uuid.UUID, v uuid.UUID, q int, ends bool) stock.HoldRelease {
		return stock.HoldRelease{Hold: stock.Hold{OrderItemID: item, LocationID: loc, VariantID: v, Quantity: q}, Ends: ends}
	}
	cases := []struct {
		name  string
		first uuid.UUID
		left  map[uuid.UUID]int
		want  []stock.HoldRelease
	}{
		{"still needs them all", uuid.Nil, map[uuid.UUID]int{a: 3, b: 5}, nil},
		{"lines not named keep theirs", uuid.Nil, map[uuid.UUID]int{}, nil},
		{"one less: from the highest location", uuid.Nil, map[uuid.UUID]int{a: 2}, []stock.HoldRelease{rel(a, loc2, l1, 1, true)}},
		{"one less, shipped from loc1: from loc1", loc1, map[uuid.UUID]int{a: 2}, []stock.HoldRelease{rel(a, loc1, l1, 1, false)}},
		{"none left", uuid.Nil, map[uuid.UUID]int{a: 0, b: -1},
			[]stock.HoldRelease{rel(a, loc1, l1, 2, true), rel(a, loc2, l1, 1, true), rel(b, loc1, l2, 4, true)}},
	}
	for _, c := range cases {
		if got := stock.Releases(holds, c.first, c.left); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
