package httpx

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gofiber/fiber/v2"
)

// Bind decodes the JSON body into dst and validates it with the `validate`
// tags. Malformed JSON, wrong types and failed rules are 400 VALIDATION_ERROR
// with details.field and details.issue. Unknown fields are ignored.
func Bind(c *fiber.Ctx, dst any) error {
	if err := DecodeJSON(c.Body(), dst); err != nil {
		return err
	}
	return Validate(dst)
}

// DecodeJSON decodes one JSON value from body into dst. An empty body decodes
// as {} so that endpoints whose fields are all optional accept no body.
func DecodeJSON(body []byte, dst any) error {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		body = []byte("{}")
	}
	if body[0] != '{' && reflect.TypeOf(dst).Elem().Kind() == reflect.Struct {
		return apperr.New(apperr.Validation, "request body must be a JSON object").
			WithDetails(map[string]any{"issue": "must be a JSON object"})
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(dst); err != nil {
		return decodeError(body, dst, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return apperr.New(apperr.Validation, "malformed JSON").
			WithDetails(map[string]any{"issue": "unexpected data after the JSON value"})
	}
	return nil
}

func decodeError(body []byte, dst any, err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			field = "body"
		}
		return apperr.Invalid(field, "must be "+describeType(typeErr.Type))
	case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF):
		return apperr.New(apperr.Validation, "malformed JSON").
			WithDetails(map[string]any{"issue": "malformed JSON"})
	}
	// A field's own UnmarshalJSON refused its value (money, dates, enums):
	// find which field so the client is told.
	if path, issue := locateBadField(body, reflect.TypeOf(dst)); path != "" {
		return apperr.Invalid(path, issue)
	}
	return apperr.New(apperr.Validation, "malformed JSON").WithDetails(map[string]any{"issue": "malformed JSON"})
}

func describeType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if t.PkgPath() != "" { // money.Amount and friends
			return "a number with at most 2 decimal places"
		}
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "of type " + t.String()
}

var (
	unmarshalerType     = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
	textUnmarshalerType = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()
)

// locateBadField walks body alongside type t and returns the JSON path of the
// first value whose UnmarshalJSON fails, with that failure as the issue.
func locateBadField(body []byte, t reflect.Type) (string, string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if pt := reflect.PointerTo(t); pt.Implements(unmarshalerType) || pt.Implements(textUnmarshalerType) {
		v := reflect.New(t)
		if err := json.Unmarshal(body, v.Interface()); err != nil {
			return "?", issueText(err)
		}
		return "", ""
	}
	switch t.Kind() {
	case reflect.Struct:
		var obj map[string]json.RawMessage
		if json.Unmarshal(body, &obj) != nil {
			return "", ""
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name := jsonName(f)
			if name == "" {
				continue
			}
			raw, ok := lookupFold(obj, name)
			if !ok || string(raw) == "null" {
				continue
			}
			if p, issue := locateBadField(raw, f.Type); p != "" {
				return join(name, p), issue
			}
		}
	case reflect.Slice:
		var arr []json.RawMessage
		if json.Unmarshal(body, &arr) != nil {
			return "", ""
		}
		for i, raw := range arr {
			if p, issue := locateBadField(raw, t.Elem()); p != "" {
				return join(fmt.Sprintf("[%d]", i), p), issue
			}
		}
	case reflect.Map:
		var obj map[string]json.RawMessage
		if json.Unmarshal(body, &obj) != nil {
			return "", ""
		}
		for k, raw := range obj {
			if p, issue := locateBadField(raw, t.Elem()); p != "" {
				return join(k, p), issue
			}
		}
	}
	return "", ""
}

func issueText(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return msg
}

func join(prefix, p string) string {
	switch {
	case p == "?":
		return prefix
	case strings.HasPrefix(p, "["):
		return prefix + p
	case strings.HasPrefix(prefix, "["):
		return prefix + "." + p
	}
	return prefix + "." + p
}

func jsonName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return ""
	}
	name, _, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name
}

// lookupFold finds a key as encoding/json does: exact, else case-insensitive.
func lookupFold(obj map[string]json.RawMessage, name string) (json.RawMessage, bool) {
	if v, ok := obj[name]; ok {
		return v, true
	}
	for k, v := range obj {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return nil, false
}
