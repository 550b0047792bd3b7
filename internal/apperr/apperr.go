// Package apperr defines the one error type the service returns to clients.
//
// Services return *Error values for every failure a client can act on; the HTTP
// layer renders them into the error envelope in one place. Anything that is not
// an *Error is an internal failure: it is logged and answered with a generic 500.
package apperr

import (
	"errors"
	"fmt"
)

// Code is a machine-readable error code (docs/openapi.yaml, Error).
type Code string

// The error codes; METHOD_NOT_ALLOWED is the one docs/DECISIONS.md
// ("Foundation") adds.
const (
	Validation   Code = "VALIDATION_ERROR"
	Unauthorized Code = "UNAUTHORIZED"
	Forbidden    Code = "FORBIDDEN"
	NotFound     Code = "NOT_FOUND"
	Conflict     Code = "CONFLICT"
	RateLimited  Code = "RATE_LIMITED"
	Unavailable  Code = "SERVICE_UNAVAILABLE"
	Internal     Code = "INTERNAL_ERROR"
	// MethodNotAllowed answers a known path called with the wrong method.
	MethodNotAllowed Code = "METHOD_NOT_ALLOWED"
)

// Status returns the HTTP status paired with a code (docs/openapi.yaml).
func (c Code) Status() int {
	switch c {
	case Validation:
		return 400
	case Unauthorized:
		return 401
	case Forbidden:
		return 403
	case NotFound:
		return 404
	case Conflict:
		return 409
	case RateLimited:
		return 429
	case Unavailable:
		return 503
	case MethodNotAllowed:
		return 405
	default:
		return 500
	}
}

// Error is an error a client may see. Message and Details are shown verbatim,
// so they must never carry secrets, SQL or internal error text.
type Error struct {
	Code    Code
	Message string
	Details map[string]any
	// Status overrides the code's usual HTTP status when not zero (413 for an
	// oversized body is a VALIDATION_ERROR with its own status).
	Status int
	// RetryAfter, when above zero, is the Retry-After (seconds) of an answer
	// that tells the client to send the same request again shortly; such an
	// answer is not kept for its Idempotency-Key.
	RetryAfter int
	// cause is kept for logs only; it is never rendered.
	cause error
}

func (e *Error) Error() string {
	if e.cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.cause)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Unwrap exposes the logged cause to errors.Is/As.
func (e *Error) Unwrap() error { return e.cause }

// New returns an error with a code and a client-facing message.
func New(code Code, message string) *Error {
	return &Error{Code: code, Message: message}
}

// Wrap returns an error with a code and message that keeps cause for the logs.
func Wrap(code Code, message string, cause error) *Error {
	return &Error{Code: code, Message: message, cause: cause}
}

// HTTPStatus is the status the error is answered with.
func (e *Error) HTTPStatus() int {
	if e.Status != 0 {
		return e.Status
	}
	return e.Code.Status()
}

// WithDetails returns a copy of e carrying details.
func (e *Error) WithDetails(details map[string]any) *Error {
	c := *e
	c.Details = details
	return &c
}

// WithRetryAfter returns a copy of e telling the client to retry after
// seconds (see RetryAfter).
func (e *Error) WithRetryAfter(seconds int) *Error {
	c := *e
	c.RetryAfter = seconds
	return &c
}

// Invalid returns a VALIDATION_ERROR naming the offending field and the issue,
// e.g. Invalid("price", "must be greater than 0").
func Invalid(field, issue string) *Error {
	return &Error{
		Code:    Validation,
		Message: field + " " + issue,
		Details: map[string]any{"field": field, "issue": issue},
	}
}

// Missing returns the NOT_FOUND error of the named resource ("order not
// found").
func Missing(resource string) *Error {
	return New(NotFound, resource+" not found")
}

// Conflictf returns a CONFLICT error with a formatted message.
func Conflictf(format string, args ...any) *Error {
	return New(Conflict, fmt.Sprintf(format, args...))
}

// As returns the *Error in err's chain, if any.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// CodeOf returns the code of err, or Internal when err is not an *Error.
func CodeOf(err error) Code {
	if e, ok := As(err); ok {
		return e.Code
	}
	return Internal
}
