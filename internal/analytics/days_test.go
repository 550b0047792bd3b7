package analytics

import (
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
)

func TestNewRange(t *testing.T) {
	now := time.Date(2026, 3, 10, 15, 4, 5, 0, time.UTC)
	d := func(s string) *time.Time {
		v, _ := time.Parse(time.DateOnly, s)
		return &v
	}
	tests := []struct {
		name         string
		from, to     *time.Time
		wantFrom     string
		wantTo       string
		days         int
		invalidField string
	}{
		{name: "default last 30 days", wantFrom: "2026-02-09", wantTo: "2026-03-10", days: 30},
		{name: "both", from: d("2026-01-01"), to: d("2026-01-31"), wantFrom: "2026-01-01", wantTo: "2026-01-31", days: 31},
		{name: "one day", from: d("2026-01-01"), to: d("2026-01-01"), wantFrom: "2026-01-01", wantTo: "2026-01-01", days: 1},
		{name: "only to", to: d("2026-01-30"), wantFrom: "2026-01-01", wantTo: "2026-01-30", days: 30},
		{name: "only from", from: d("2026-03-01"), wantFrom: "2026-03-01", wantTo: "2026-03-10", days: 10},
		{name: "from in the future", from: d("2026-04-01"), wantFrom: "2026-04-01", wantTo: "2026-04-01", days: 1},
		{name: "reversed", from: d("2026-01-02"), to: d("2026-01-01"), invalidField: "dateFrom"},
		{name: "too long", from: d("2024-01-01"), to: d("2026-01-02"), invalidField: "dateTo"},
		{name: "longest", from: d("2024-01-01"), to: d("2025-12-31"), wantFrom: "2024-01-01", wantTo: "2025-12-31", days: 731},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewRange(tt.from, tt.to, now)
			if tt.invalidField != "" {
				e, ok := apperr.As(err)
				if !ok || e.Details["field"] != tt.invalidField {
					t.Fatalf("err %v, want invalid %s", err, tt.invalidField)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if date(r.From) != tt.wantFrom || date(r.To) != tt.wantTo || r.Days() != tt.days {
				t.Fatalf("%s..%s (%d days), want %s..%s (%d)", date(r.From), date(r.To), r.Days(), tt.wantFrom, tt.wantTo, tt.days)
			}
		})
	}
}
