package httpx

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/patch"
	"github.com/google/uuid"
)

// Locating the value a body was refused for. encoding/json stops at the
// first bad value but names it poorly: its path has no array indexes, a
// UUID's type is "[16]uint8", and a foreign parser's error is internal text
// ("invalid UUID length: 4"). findBadValue decodes the body again, value by
// value along the destination type, to name the value and its problem.

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	patchPackage        = reflect.TypeFor[patch.Field[int]]().PkgPath()
	// modulePrefix marks this module's own types: the error of their
	// UnmarshalJSON is written for the client (money's "must have at most
	// 2 decimal places"), so it is shown as the issue.
	modulePrefix = strings.TrimSuffix(reflect.TypeFor[Page]().PkgPath(), "api/httpx")
)

// foreignIssues are the issues of other modules' types that parse
// themselves, whose errors are not for clients.
var foreignIssues = map[reflect.Type]string{
	reflect.TypeFor[uuid.UUID](): "must be a UUID",
	reflect.TypeFor[time.Time](): "must be an ISO 8601 date-time such as 2026-01-31T18:30:00Z",
}

// badValue is a value a body was refused for: its JSON path ("?" for the
// value findBadValue was given, "" for none), the issue, and for a value of
// an object keyed by the client (customerGroupOverrides), that key: the
// path stops at the object, as docs/DECISIONS.md "Pricing" describes.
type badValue struct {
	path, issue, key string
}

func (b badValue) found() bool { return b.path != "" }

// under returns b as found under prefix (a field name or "[i]").
func (b badValue) under(prefix string) badValue {
	b.path = join(prefix, b.path)
	return b
}

// findBadValue returns the first value of raw that does not decode into its
// place in t.
func findBadValue(raw []byte, t reflect.Type) badValue {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return badValue{} // null leaves a value as it is; validation judges that
	}
	if elem, ok := patchElem(t); ok {
		return findBadValue(raw, elem)
	}
	if decodesItself(t) {
		if err := json.Unmarshal(raw, reflect.New(t).Interface()); err != nil {
			return badValue{path: "?", issue: ownIssue(t, err)}
		}
		return badValue{}
	}
	switch t.Kind() {
	case reflect.Struct:
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return badValue{path: "?", issue: "must be an object"}
		}
		return findInStruct(obj, t)
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			break // []byte is a base64 string
		}
		var arr []json.RawMessage
		if json.Unmarshal(raw, &arr) != nil {
			return badValue{path: "?", issue: "must be an array"}
		}
		for i, v := range arr {
			if b := findBadValue(v, t.Elem()); b.found() {
				return b.under(fmt.Sprintf("[%d]", i))
			}
		}
		return badValue{}
	case reflect.Map:
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return badValue{path: "?", issue: "must be an object"}
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys) // the same body names the same value every time
		for _, k := range keys {
			if b := findBadValue(obj[k], t.Elem()); b.found() {
				return badValue{path: "?", issue: b.issue, key: k}
			}
		}
		return badValue{}
	}
	if err := json.Unmarshal(raw, reflect.New(t).Interface()); err != nil {
		return badValue{path: "?", issue: "must be " + describeType(t)}
	}
	return badValue{}
}

// findInStruct looks for the first bad value among struct t's fields, as
// encoding/json matches them: by JSON name, else case-insensitively, with
// the fields of an untagged embedded struct promoted.
func findInStruct(obj map[string]json.RawMessage, t reflect.Type) badValue {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && f.Tag.Get("json") == "" && ft.Kind() == reflect.Struct {
			if b := findInStruct(obj, ft); b.found() {
				return b
			}
			continue
		}
		name := jsonName(f)
		if name == "" {
			continue
		}
		raw, ok := lookupFold(obj, name)
		if !ok {
			continue
		}
		if b := findBadValue(raw, f.Type); b.found() {
			return b.under(name)
		}
	}
	return badValue{}
}

// patchElem returns T for a patch.Field[T], which decodes by decoding a T.
func patchElem(t reflect.Type) (reflect.Type, bool) {
	if t.PkgPath() != patchPackage || !strings.HasPrefix(t.Name(), "Field[") {
		return nil, false
	}
	m, ok := t.MethodByName("Ptr")
	if !ok {
		return nil, false
	}
	return m.Type.Out(0).Elem(), true
}

func decodesItself(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return pt.Implements(unmarshalerType) || pt.Implements(textUnmarshalerType)
}

// ownIssue is the issue of a value that t's own UnmarshalJSON or
// UnmarshalText refused with err.
func ownIssue(t reflect.Type, err error) string {
	if issue, ok := foreignIssues[t]; ok {
		return issue
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return "must be " + describeType(typeErr.Type)
	}
	if strings.HasPrefix(t.PkgPath(), modulePrefix) {
		return err.Error()
	}
	return "is invalid"
}

func describeType(t reflect.Type) string {
	if issue, ok := foreignIssues[t]; ok {
		return strings.TrimPrefix(issue, "must be ")
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
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

// join appends path p (a field name, "[i]" or "?" for the value itself) to
// prefix.
func join(prefix, p string) string {
	switch {
	case p == "?":
		return prefix
	case strings.HasPrefix(p, "["):
		return prefix + p
	}
	return prefix + "." + p
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
