package httpx

import (
	"errors"
	"reflect"
	"regexp"
	"strings"

	"github.com/go-playground/validator/v10"
	"github.com/gocommerce/shop/internal/apperr"
)

var validate = newValidator()

func newValidator() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		if f.Anonymous && f.Tag.Get("json") == "" {
			// An embedded struct's fields are the body's own (JSON promotes
			// them): fieldPath drops this segment.
			return promoted
		}
		if name := jsonName(f); name != "" {
			return name
		}
		return f.Name
	})
	_ = v.RegisterValidation("slug", func(fl validator.FieldLevel) bool {
		return slugPattern.MatchString(fl.Field().String())
	})
	_ = v.RegisterValidation("notblank", func(fl validator.FieldLevel) bool {
		return strings.TrimSpace(fl.Field().String()) != ""
	})
	return v
}

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// Validate checks dst's `validate` tags and returns the first failure as a
// VALIDATION_ERROR naming the field (its JSON path) and the issue.
func Validate(dst any) error {
	err := validate.Struct(dst)
	if err == nil {
		return nil
	}
	var verrs validator.ValidationErrors
	if !errors.As(err, &verrs) || len(verrs) == 0 {
		return apperr.New(apperr.Validation, "invalid request")
	}
	fe := verrs[0]
	return apperr.Invalid(fieldPath(fe.Namespace()), issueFor(fe))
}

// ValidateVar checks one value against a rule, e.g. ValidateVar("email", s, "email").
func ValidateVar(field string, v any, rule string) error {
	if err := validate.Var(v, rule); err != nil {
		var verrs validator.ValidationErrors
		if errors.As(err, &verrs) && len(verrs) > 0 {
			return apperr.Invalid(field, issueFor(verrs[0]))
		}
		return apperr.Invalid(field, "is invalid")
	}
	return nil
}

// promoted names an embedded struct in a field's namespace.
const promoted = "~"

// fieldPath drops the struct name from "createProduct.rules[0].price", and
// the embedded structs' segments from "checkout.~.buyerGstin".
func fieldPath(ns string) string {
	if _, rest, ok := strings.Cut(ns, "."); ok {
		ns = rest
	}
	return strings.ReplaceAll(ns, promoted+".", "")
}

func issueFor(fe validator.FieldError) string {
	p := fe.Param()
	switch fe.Tag() {
	case "required", "required_without", "required_with", "required_if":
		return "is required"
	case "notblank":
		return "must not be blank"
	case "email":
		return "must be a valid email address"
	case "uuid", "uuid4":
		return "must be a UUID"
	case "url", "http_url":
		return "must be a valid URL"
	case "slug":
		return "must be lower-case letters, digits and single hyphens"
	case "oneof":
		return "must be one of: " + strings.ReplaceAll(p, " ", ", ")
	case "min", "gte":
		return bound(fe.Kind(), "at least", p)
	case "max", "lte":
		return bound(fe.Kind(), "at most", p)
	case "len":
		return bound(fe.Kind(), "exactly", p)
	case "gt":
		return bound(fe.Kind(), "more than", p)
	case "lt":
		return bound(fe.Kind(), "fewer than", p)
	case "numeric":
		return "must contain only digits"
	case "dive", "unique":
		return "must not contain duplicates"
	}
	return "is invalid"
}

// bound says how a value of kind k must compare with n: a number by its
// value ("must be at least 1"), a string by its characters, a list by its
// items and an object by its entries ("must have at least 1 item").
func bound(k reflect.Kind, relation, n string) string {
	verb, unit := "have", ""
	switch k {
	case reflect.String:
		verb, unit = "be", "character"
	case reflect.Slice, reflect.Array:
		unit = "item"
	case reflect.Map:
		unit = "entr"
	default:
		switch relation {
		case "more than":
			relation = "greater than"
		case "fewer than":
			relation = "less than"
		}
		return "must be " + relation + " " + n
	}
	switch {
	case unit == "entr" && n == "1":
		unit = "entry"
	case unit == "entr":
		unit = "entries"
	case n != "1":
		unit += "s"
	}
	return "must " + verb + " " + relation + " " + n + " " + unit
}

func isLengthKind(k reflect.Kind) bool {
	return k == reflect.String || k == reflect.Slice || k == reflect.Map || k == reflect.Array
}
