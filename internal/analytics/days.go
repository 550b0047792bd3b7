package analytics

import (
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/storeday"
)

// DefaultDays is the span of a report when no dates are given: the last 30
// days, today included.
const DefaultDays = 30

// MaxDays bounds the span of one report (two years).
const MaxDays = 731

// Range is an inclusive span of the store's dates (each at midnight UTC of
// its calendar date: storeday.Date).
type Range struct {
	From, To time.Time
}

// Day returns the UTC date of t at midnight: the day a touch or a
// scheduled rollup names (RollupUTCDays rolls the store days it touches).
func Day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Days is the number of dates in r.
func (r Range) Days() int { return int(r.To.Sub(r.From).Hours()/24) + 1 }

// NewRange checks the optional dateFrom and dateTo of a report against now.
// Missing ends default to the last DefaultDays days ending today (or to a
// span of that length next to the given end). dateFrom after dateTo, or a
// span longer than MaxDays, is VALIDATION_ERROR.
func NewRange(from, to *time.Time, now time.Time) (Range, error) {
	return NewRangeIn(from, to, now, time.UTC)
}

// NewRange is NewRange with today the date of now in loc, the store's zone.
func (s *Service) NewRange(from, to *time.Time, now time.Time) (Range, error) {
	return NewRangeIn(from, to, now, s.zone())
}

// NewRangeIn is NewRange with today the date of now in loc.
func NewRangeIn(from, to *time.Time, now time.Time, loc *time.Location) (Range, error) {
	var r Range
	today := storeday.Date(now, loc)
	switch {
	case from == nil && to == nil:
		r.To = today
		r.From = r.To.AddDate(0, 0, -(DefaultDays - 1))
	case from == nil:
		r.To = Day(*to)
		r.From = r.To.AddDate(0, 0, -(DefaultDays - 1))
	case to == nil:
		r.From = Day(*from)
		r.To = today
		if r.To.Before(r.From) {
			r.To = r.From
		}
	default:
		r.From, r.To = Day(*from), Day(*to)
	}
	if r.To.Before(r.From) {
		return r, apperr.Invalid("dateFrom", "must not be after dateTo")
	}
	if r.Days() > MaxDays {
		return r, apperr.Invalid("dateTo", "must be at most 731 days after dateFrom")
	}
	return r, nil
}
