package httpx

import "time"

// Timestamp is t as every response writes times: RFC 3339 in UTC, with the
// fractional seconds Postgres keeps (up to microseconds, trailing zeros
// dropped), as encoding/json writes a UTC time.Time (docs/DECISIONS.md,
// "HTTP conventions").
// A time not read from Postgres is cut to its microseconds (as pgx stores
// it), so an answer made from a value in memory is the one read back later.
func Timestamp(t time.Time) string {
	return t.UTC().Truncate(time.Microsecond).Format(time.RFC3339Nano)
}

// TimestampPtr is Timestamp of *t, or nil.
func TimestampPtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := Timestamp(*t)
	return &s
}
