package models

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5/pgtype"
)

// JSON is a jsonb column holding a JSON document, kept as its raw bytes. A
// NULL column reads as the document null; an empty value writes NULL.
type JSON []byte

// Value writes the document as text, or NULL when it is empty.
func (j JSON) Value() (driver.Value, error) {
	if len(j) == 0 {
		return nil, nil
	}
	return string(j), nil
}

// Scan reads a jsonb column, copying the bytes: the driver reuses its buffer.
func (j *JSON) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*j = JSON("null")
	case []byte:
		*j = append(JSON(nil), v...)
	case string:
		*j = JSON(v)
	default:
		return fmt.Errorf("models.JSON: cannot scan %T", src)
	}
	return nil
}

// DecodeJSON decodes a jsonb column as a Scan method receives it (src)
// into dst; found is false, dst untouched, for NULL.
func DecodeJSON(src, dst any) (found bool, err error) {
	var b []byte
	switch v := src.(type) {
	case nil:
		return false, nil
	case []byte:
		b = v
	case string:
		b = []byte(v)
	default:
		return false, fmt.Errorf("cannot scan %T", src)
	}
	return true, json.Unmarshal(b, dst)
}

// MarshalJSON writes the document as it is (null when empty).
func (j JSON) MarshalJSON() ([]byte, error) { return json.RawMessage(j).MarshalJSON() }

// UnmarshalJSON keeps a copy of the document.
func (j *JSON) UnmarshalJSON(b []byte) error {
	*j = append(JSON(nil), b...)
	return nil
}

// String returns the document's text.
func (j JSON) String() string { return string(j) }

// GormDataType names the column type for schema tools.
func (JSON) GormDataType() string { return "jsonb" }

// StringArray is a text[] column, read and written in Postgres's array text
// format by pgx's pgtype (the one Postgres driver of the service). A nil
// array writes NULL and NULL reads as nil.
type StringArray []string

// Value encodes the array in Postgres's text format, or NULL when nil.
func (a StringArray) Value() (driver.Value, error) {
	if a == nil {
		return nil, nil
	}
	buf, err := pgtype.NewMap().Encode(pgtype.TextArrayOID, pgtype.TextFormatCode, []string(a), nil)
	if err != nil {
		return nil, fmt.Errorf("models.StringArray: %w", err)
	}
	return string(buf), nil
}

// Scan decodes a text[] column in Postgres's text format.
func (a *StringArray) Scan(src any) error {
	var raw []byte
	switch v := src.(type) {
	case nil:
		*a = nil
		return nil
	case []byte:
		raw = v
	case string:
		raw = []byte(v)
	default:
		return fmt.Errorf("models.StringArray: cannot scan %T", src)
	}
	var out []string
	if err := pgtype.NewMap().Scan(pgtype.TextArrayOID, pgtype.TextFormatCode, raw, &out); err != nil {
		return fmt.Errorf("models.StringArray: %w", err)
	}
	*a = out
	return nil
}

// GormDataType names the column type for schema tools.
func (StringArray) GormDataType() string { return "text[]" }
