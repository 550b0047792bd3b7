package testkit

import (
	"sort"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
)

// undocumentedMembers lists the members of the objects in v (a decoded JSON
// response) that schema does not declare. OpenAPI lets an object carry any
// other member unless it says additionalProperties: false; the contract is
// stricter for what the service sends, so that a field added to a handler
// without the document fails its test. An object that may hold arbitrary
// members says so with additionalProperties (true or a schema).
func undocumentedMembers(schema *openapi3.Schema, v any) []string {
	var out []string
	walkMembers(schema, v, "$", &out)
	sort.Strings(out)
	return out
}

func walkMembers(s *openapi3.Schema, v any, path string, out *[]string) {
	if s == nil || v == nil {
		return
	}
	if alt := matchingAlternative(s, v); alt != nil {
		walkMembers(alt, v, path, out)
		return
	}
	switch val := v.(type) {
	case []any:
		items := arrayItems(s)
		if items == nil {
			return
		}
		for i, e := range val {
			walkMembers(items, e, path+"["+strconv.Itoa(i)+"]", out)
		}
	case map[string]any:
		if isFreeForm(s) {
			return
		}
		keys := make([]string, 0, len(val))
		for k := range val {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ps, ok := memberSchema(s, k)
			if !ok {
				*out = append(*out, path+"."+k+": not declared by the schema (document it, or add additionalProperties where members are free-form)")
				continue
			}
			walkMembers(ps, val[k], path+"."+k, out)
		}
	}
}

// matchingAlternative returns the oneOf/anyOf alternative v validates
// against, for walking; nil when s has none.
func matchingAlternative(s *openapi3.Schema, v any) *openapi3.Schema {
	for _, alts := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
		for _, a := range alts {
			if a.Value != nil && a.Value.VisitJSON(v, openapi3.VisitAsResponse()) == nil {
				return a.Value
			}
		}
	}
	return nil
}

func arrayItems(s *openapi3.Schema) *openapi3.Schema {
	if s.Items != nil {
		return s.Items.Value
	}
	for _, a := range s.AllOf {
		if a.Value != nil {
			if it := arrayItems(a.Value); it != nil {
				return it
			}
		}
	}
	return nil
}

// isFreeForm reports a schema that constrains no member names: no
// properties, no composition, no type (an "any value" schema).
func isFreeForm(s *openapi3.Schema) bool {
	return len(s.Properties) == 0 && len(s.AllOf) == 0 && len(s.OneOf) == 0 && len(s.AnyOf) == 0 &&
		s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil && s.Type == nil
}

// memberSchema returns the schema of member k of an object of schema s
// (nil when any value is allowed) and whether s declares k at all.
func memberSchema(s *openapi3.Schema, k string) (*openapi3.Schema, bool) {
	if p, ok := s.Properties[k]; ok {
		return p.Value, true
	}
	for _, group := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
		for _, a := range group {
			if a.Value == nil {
				continue
			}
			if ps, ok := memberSchema(a.Value, k); ok {
				return ps, true
			}
		}
	}
	if ap := s.AdditionalProperties; ap.Schema != nil {
		return ap.Schema.Value, true
	} else if ap.Has != nil && *ap.Has {
		return nil, true
	}
	return nil, false
}
