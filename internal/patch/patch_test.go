package patch

import (
	"encoding/json"
	"errors"
	"testing"
)

type body struct {
	Title Field[string] `json:"title"`
	Count Field[int]    `json:"count"`
}

func TestFieldTellsAbsentNullAndValue(t *testing.T) {
	tests := []struct {
		name               string
		json               string
		present, null, has bool
		value              string
	}{
		{name: "absent", json: `{}`},
		{name: "null", json: `{"title":null}`, present: true, null: true},
		{name: "value", json: `{"title":"Tee"}`, present: true, has: true, value: "Tee"},
		{name: "empty string is a value", json: `{"title":""}`, present: true, has: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b body
			if err := json.Unmarshal([]byte(tt.json), &b); err != nil {
				t.Fatal(err)
			}
			v, has := b.Title.Get()
			if b.Title.Present() != tt.present || b.Title.IsNull() != tt.null || has != tt.has || v != tt.value {
				t.Fatalf("present=%v null=%v has=%v value=%q", b.Title.Present(), b.Title.IsNull(), has, v)
			}
			if (b.Title.Ptr() != nil) != tt.has {
				t.Fatalf("Ptr() = %v", b.Title.Ptr())
			}
		})
	}
}

func TestFieldTypeErrorNamesTheField(t *testing.T) {
	var b body
	err := json.Unmarshal([]byte(`{"count":"x"}`), &b)
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field != "count" {
		t.Fatalf("want a type error on count, got %v", err)
	}
}

func TestFieldMarshal(t *testing.T) {
	out, _ := json.Marshal(map[string]any{"a": Set(3), "b": Null[int](), "c": Field[int]{}})
	if string(out) != `{"a":3,"b":null,"c":null}` {
		t.Fatalf("got %s", out)
	}
	if p := From[int](nil); !p.IsNull() {
		t.Fatal("From(nil) must be null")
	}
}

func TestApplyTo(t *testing.T) {
	dst := "kept"
	Field[string]{}.ApplyTo(&dst)
	Null[string]().ApplyTo(&dst)
	if dst != "kept" {
		t.Fatalf("absent or null changed the value to %q", dst)
	}
	Set("new").ApplyTo(&dst)
	if dst != "new" {
		t.Fatalf("a value was not applied: %q", dst)
	}
}
