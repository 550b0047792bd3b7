// Package patch holds Field, one field of a partial update (a PATCH body),
// which tells the three cases apart that a pointer cannot: the key was
// absent (leave the value alone), the key was null (clear it), or the key
// carried a value (set it).
//
// It lives apart from the HTTP layer so that services can take patches with
// the same type the handlers decode:
//
//	type productPatch struct {
//		Title      patch.Field[string]    `json:"title"`
//		CategoryID patch.Field[uuid.UUID] `json:"categoryId"`
//	}
//
// Use Field as a value, never as a pointer: encoding/json sets a nil pointer
// for null and never calls UnmarshalJSON, which loses "null".
package patch

import (
	"bytes"
	"encoding/json"

	"github.com/gocommerce/shop/internal/apperr"
)

// Field is one field of a partial update.
type Field[T any] struct {
	set   bool
	null  bool
	value T
}

// Set returns a field carrying v.
func Set[T any](v T) Field[T] { return Field[T]{set: true, value: v} }

// Null returns a field that was given as JSON null.
func Null[T any]() Field[T] { return Field[T]{set: true, null: true} }

// From returns a field carrying *p, or null when p is nil.
func From[T any](p *T) Field[T] {
	if p == nil {
		return Null[T]()
	}
	return Set(*p)
}

// Present reports whether the key was in the body (with a value or null).
func (f Field[T]) Present() bool { return f.set }

// IsNull reports whether the key was given as null.
func (f Field[T]) IsNull() bool { return f.set && f.null }

// Get returns the value and true when the key carried a value (not null).
func (f Field[T]) Get() (T, bool) { return f.value, f.set && !f.null }

// ApplyTo sets *dst to the value when the key carried one; absent and null
// leave *dst alone (for fields that cannot be cleared).
func (f Field[T]) ApplyTo(dst *T) {
	if v, ok := f.Get(); ok {
		*dst = v
	}
}

// Ptr returns a pointer to the value, or nil when absent or null. Use it for
// nullable columns after checking Present.
func (f Field[T]) Ptr() *T {
	if !f.set || f.null {
		return nil
	}
	v := f.value
	return &v
}

// UnmarshalJSON records that the key was present, and whether it was null.
// A value of the wrong type is an *json.UnmarshalTypeError that encoding/json
// attributes to the enclosing field, so binding errors still name it.
func (f *Field[T]) UnmarshalJSON(b []byte) error {
	f.set = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		var zero T
		f.null, f.value = true, zero
		return nil
	}
	f.null = false
	return json.Unmarshal(b, &f.value)
}

// MarshalJSON renders the value, or null when absent or null.
func (f Field[T]) MarshalJSON() ([]byte, error) {
	if !f.set || f.null {
		return []byte("null"), nil
	}
	return json.Marshal(f.value)
}

// NotNull refuses null for field f, a value that cannot be cleared.
// Errors: VALIDATION_ERROR on field.
func NotNull[T any](field string, f Field[T]) error {
	if f.IsNull() {
		return apperr.Invalid(field, "must not be null")
	}
	return nil
}

// Map converts a field's value with fn, keeping absent and null as they are.
func Map[T, U any](f Field[T], fn func(T) U) Field[U] {
	if v, ok := f.Get(); ok {
		return Set(fn(v))
	}
	return Field[U]{set: f.set, null: f.null}
}
