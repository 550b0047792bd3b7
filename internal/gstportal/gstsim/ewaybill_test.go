package gstsim

import "testing"

// The IRP passes on the e-way bill system's codes: 721 when the distance
// between the pincodes is unknown and none was given, 702 when it is too
// high (gstportal.EwbErrors).
func TestEwayBillByIRNRefusesDistancesWithTheSystemsCodes(t *testing.T) {
	s, err := New(Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name         string
		km, from, to int
		want         string
	}{
		{"unknown pincodes, no distance", 0, 999999, 999998, "721"},
		{"more than 4000 km", 4001, 400001, 560001, "702"},
	} {
		if _, _, err := s.issue(c.name, c.km, c.from, c.to); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
	b, calc, err := s.issue("Mumbai to Bengaluru", 0, 400001, 560001)
	if err != nil || calc == 0 || b.DistanceKm != calc {
		t.Fatalf("a known route: %+v %d %v", b, calc, err)
	}
}
