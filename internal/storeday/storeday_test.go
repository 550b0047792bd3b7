package storeday

import (
	"testing"
	"time"
)

func TestSplitUTC(t *testing.T) {
	ist, _ := time.LoadLocation("Asia/Kolkata")
	day := func(s string) *time.Time { d, _ := time.Parse(time.DateOnly, s); return &d }
	tests := []struct {
		name     string
		loc      *time.Location
		from, to *time.Time
		first    string // "" when open
		end      string
		edges    int
		noDays   bool
	}{
		{"one IST day holds no whole UTC day", ist, day("2026-07-01"), day("2026-07-01"), "2026-07-01", "2026-07-01", 1, true},
		{"two IST days hold one", ist, day("2026-06-30"), day("2026-07-01"), "2026-06-30", "2026-07-01", 2, false},
		{"UTC days are whole", time.UTC, day("2026-06-30"), day("2026-07-01"), "2026-06-30", "2026-07-02", 0, false},
		{"open start", ist, nil, day("2026-07-01"), "", "2026-07-01", 1, false},
		{"open end", ist, day("2026-07-01"), nil, "2026-07-01", "", 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := SplitUTC(Dates(tt.from, tt.to, tt.loc))
			str := func(p *time.Time) string {
				if p == nil {
					return ""
				}
				return p.Format(time.DateOnly)
			}
			if str(s.FirstDay) != tt.first || str(s.EndDay) != tt.end || len(s.Edges) != tt.edges || s.NoDays != tt.noDays {
				t.Fatalf("split %s..%s %s..%s edges %v noDays %v", str(s.FirstDay), str(s.EndDay), tt.first, tt.end, s.Edges, s.NoDays)
			}
			// The days and the edges cover the span exactly.
			span := Dates(tt.from, tt.to, tt.loc)
			var covered time.Duration
			for _, e := range s.Edges {
				covered += e[1].Sub(e[0])
			}
			if !s.NoDays && s.FirstDay != nil && s.EndDay != nil {
				covered += s.EndDay.Sub(*s.FirstDay)
			}
			if span.From != nil && span.To != nil && covered != span.To.Sub(*span.From) {
				t.Fatalf("covered %v of %v", covered, span.To.Sub(*span.From))
			}
		})
	}
}
