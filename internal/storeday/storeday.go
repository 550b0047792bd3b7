// Package storeday turns the store's calendar dates (STORE_TIMEZONE) into
// the instants they span, and splits such a span into the whole UTC days
// that the day counters (order_day_counts, kept per UTC day by triggers)
// answer and the edges that must be counted from the orders themselves.
//
// A date here is a time.Time whose year, month and day are the date (as
// time.Parse of "2006-01-02" returns it); its zone and clock are ignored.
package storeday

import "time"

// OrUTC is loc, or UTC when the store's zone was never set (a service
// built without one, as in tests that predate the store's day).
func OrUTC(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}

// Start is the first instant of date d in loc.
func Start(d time.Time, loc *time.Location) time.Time {
	y, m, dd := d.Date()
	return time.Date(y, m, dd, 0, 0, 0, 0, loc)
}

// End is the first instant after date d in loc (the next date's Start).
func End(d time.Time, loc *time.Location) time.Time {
	y, m, dd := d.Date()
	return time.Date(y, m, dd+1, 0, 0, 0, 0, loc)
}

// Date is the store's date of instant t, as midnight UTC of that calendar
// date (so that formatting it with time.DateOnly writes the store's date).
func Date(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Span is [From, To) in instants; a nil end is open.
type Span struct {
	From, To *time.Time
}

// Dates is the span of the inclusive store dates from..to (either nil:
// open).
func Dates(from, to *time.Time, loc *time.Location) Span {
	var s Span
	if from != nil {
		t := Start(*from, loc)
		s.From = &t
	}
	if to != nil {
		t := End(*to, loc)
		s.To = &t
	}
	return s
}

// Split is a Span cut at UTC midnights: Days, the whole UTC dates inside it
// (FirstDay <= day < EndDay, either end open when nil), and Edges, the at
// most two spans of instants outside those days. In UTC, or a zone whose
// midnights are UTC midnights, there are no edges.
type Split struct {
	FirstDay, EndDay *time.Time
	// Edges are non-empty [From, To) spans with both ends set.
	Edges [][2]time.Time
	// NoDays is true when no whole UTC day lies inside the span: only the
	// edges count (a single store day in a zone off UTC never holds one).
	NoDays bool
}

// SplitUTC splits s at UTC midnights.
func SplitUTC(s Span) Split {
	var out Split
	if s.From != nil {
		f := s.From.UTC()
		first := f.Truncate(24 * time.Hour)
		if first.Before(f) {
			first = first.AddDate(0, 0, 1)
		}
		out.FirstDay = &first
	}
	if s.To != nil {
		t := s.To.UTC()
		end := t.Truncate(24 * time.Hour)
		out.EndDay = &end
	}
	if out.FirstDay != nil && out.EndDay != nil && !out.FirstDay.Before(*out.EndDay) {
		// No whole UTC day inside: the span is one edge.
		out.NoDays = true
		if s.From.Before(*s.To) {
			out.Edges = append(out.Edges, [2]time.Time{s.From.UTC(), s.To.UTC()})
		}
		return out
	}
	if out.FirstDay != nil && s.From.UTC().Before(*out.FirstDay) {
		out.Edges = append(out.Edges, [2]time.Time{s.From.UTC(), *out.FirstDay})
	}
	if out.EndDay != nil && out.EndDay.Before(s.To.UTC()) {
		out.Edges = append(out.Edges, [2]time.Time{*out.EndDay, s.To.UTC()})
	}
	return out
}
