package httpx

import (
	"errors"
	"fmt"
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
		name := jsonName(f)
		if name == "" {
			return f.Name
		}
		return name
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

// fieldPath drops the struct name from "createProduct.rules[0].price".
func fieldPath(ns string) string {
	if _, rest, ok := strings.Cut(ns, "."); ok {
		return rest
	}
	return ns
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
	case "min":
		if isLengthKind(fe.Kind()) {
			return fmt.Sprintf("must be at least %s characters", p)
		}
		return "must be at least " + p
	case "max":
		if isLengthKind(fe.Kind()) {
			return fmt.Sprintf("must be at most %s characters", p)
		}
		return "must be at most " + p
	case "len":
		return fmt.Sprintf("must be exactly %s characters", p)
	case "gt":
		return "must be greater than " + p
	case "gte":
		return "must be at least " + p
	case "lt":
		return "must be less than " + p
	case "lte":
		return "must be at most " + p
	case "numeric":
		return "must contain only digits"
	case "dive", "unique":
		return "must not contain duplicates"
	}
	return "is invalid"
}

func isLengthKind(k reflect.Kind) bool {
	return k == reflect.String || k == reflect.Slice || k == reflect.Map || k == reflect.Array
}
