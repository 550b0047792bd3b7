package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
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

// decodeError turns a failed decoding of body into dst into the
// VALIDATION_ERROR that names the first bad value by its JSON path
// ("items[1].quantity") and says what it must be.
func decodeError(body []byte, dst any, err error) error {
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) || errors.Is(err, io.ErrUnexpectedEOF) {
		return apperr.New(apperr.Validation, "malformed JSON").
			WithDetails(map[string]any{"issue": "malformed JSON"})
	}
	if bad := findBadValue(body, reflect.TypeOf(dst)); bad.found() {
		if bad.path == "?" {
			bad.path = "body"
		}
		if bad.key != "" {
			return apperr.Invalid(bad.path, bad.issue).
				WithDetails(map[string]any{"field": bad.path, "issue": bad.issue, "key": bad.key})
		}
		return apperr.Invalid(bad.path, bad.issue)
	}
	// encoding/json's own path has no array indexes ("items.quantity"):
	// only a value findBadValue could not place is named by it.
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		field := typeErr.Field
		if field == "" {
			field = "body"
		}
		return apperr.Invalid(field, "must be "+describeType(typeErr.Type))
	}
	return apperr.New(apperr.Validation, "malformed JSON").WithDetails(map[string]any{"issue": "malformed JSON"})
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
