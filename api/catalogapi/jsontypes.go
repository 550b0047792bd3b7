package catalogapi

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// Body field types whose own UnmarshalJSON refuses a bad value with a short
// issue, so that httpx.Bind reports it as details.field/details.issue.

// jsonUUID is a UUID in a request body.
type jsonUUID uuid.UUID

func (u *jsonUUID) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	id, err := uuid.Parse(s)
	if err != nil {
		return errors.New("must be a UUID")
	}
	*u = jsonUUID(id)
	return nil
}

func (u jsonUUID) id() uuid.UUID { return uuid.UUID(u) }

func uuidPtr(u *jsonUUID) *uuid.UUID {
	if u == nil {
		return nil
	}
	id := u.id()
	return &id
}

func uuids(in []jsonUUID) []uuid.UUID {
	out := make([]uuid.UUID, len(in))
	for i, u := range in {
		out[i] = u.id()
	}
	return out
}

// jsonTime is an ISO 8601 (RFC 3339) date-time in a request body.
type jsonTime time.Time

func (t *jsonTime) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.Parse(time.RFC3339, s)
	if err != nil || !httpx.InDateRange(v) {
		return errors.New("must be an ISO 8601 date-time such as 2026-01-31T18:30:00Z, from year 0001 to 9999")
	}
	*t = jsonTime(v.UTC())
	return nil
}

func (t jsonTime) time() time.Time { return time.Time(t) }

// jsonDecimal is a non-string JSON number kept exactly (a weight).
type jsonDecimal decimal.Decimal

func (d *jsonDecimal) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || b[0] == '"' {
		return errors.New("must be a number")
	}
	v, err := decimal.NewFromString(string(b))
	if err != nil {
		return errors.New("must be a number")
	}
	*d = jsonDecimal(v)
	return nil
}

func (d jsonDecimal) decimal() decimal.Decimal { return decimal.Decimal(d) }

func decimalPtr(d *jsonDecimal) *decimal.Decimal {
	if d == nil {
		return nil
	}
	v := d.decimal()
	return &v
}

// jsonNumber renders a decimal as a JSON number (decimal.Decimal's own
// MarshalJSON renders a string).
func jsonNumber(d *decimal.Decimal) *json.Number {
	if d == nil {
		return nil
	}
	n := json.Number(d.String())
	return &n
}
