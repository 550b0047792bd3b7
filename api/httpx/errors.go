// Package httpx holds the HTTP helpers every handler uses: the error
// envelope, JSON binding and validation, pagination and path parameters.
package httpx

import (
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// LocalRequestID is the c.Locals key of the request id.
const LocalRequestID = "requestId"

// ErrorBody is the error envelope: {"error": {...}}.
type ErrorBody struct {
	Error ErrorObject `json:"error"`
}

// ErrorObject is the body of every error response (docs/openapi.yaml, Error).
type ErrorObject struct {
	Code      apperr.Code    `json:"code"`
	Message   string         `json:"message"`
	Details   map[string]any `json:"details"`
	RequestID string         `json:"requestId"`
	Timestamp string         `json:"timestamp"`
}

// RequestID returns the request's id, creating one (and its response header)
// for requests that failed before the request-id middleware ran.
func RequestID(c *fiber.Ctx) string {
	if id, ok := c.Locals(LocalRequestID).(string); ok && id != "" {
		return id
	}
	id := uuid.NewString()
	c.Locals(LocalRequestID, id)
	c.Set(fiber.HeaderXRequestID, id)
	return id
}

// ErrorHandler renders every error returned by a handler or middleware as the
// envelope. Unknown errors are logged and answered 500 with a generic message;
// an unreachable database or Redis is 503.
func ErrorHandler(log *slog.Logger) fiber.ErrorHandler {
	return func(c *fiber.Ctx, err error) error {
		e := classify(err)
		if e.Code == apperr.Internal || e.Code == apperr.Unavailable {
			log.ErrorContext(c.UserContext(), "request failed",
				"err", err, "method", c.Method(), "path", c.Path())
		}
		return WriteError(c, e)
	}
}

// WriteError writes e as the envelope with its paired status.
func WriteError(c *fiber.Ctx, e *apperr.Error) error {
	details := e.Details
	if details == nil {
		details = map[string]any{}
	}
	if e.RetryAfter > 0 {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(e.RetryAfter))
	}
	return c.Status(e.HTTPStatus()).JSON(ErrorBody{Error: ErrorObject{
		Code:      e.Code,
		Message:   e.Message,
		Details:   details,
		RequestID: RequestID(c),
		Timestamp: time.Now().UTC().Format(time.RFC3339Nano),
	}})
}

func classify(err error) *apperr.Error {
	if e, ok := apperr.As(err); ok {
		if e.Code == apperr.Internal {
			return apperr.New(apperr.Internal, "internal server error")
		}
		return e
	}
	var fe *fiber.Error
	if errors.As(err, &fe) {
		return fromFiber(fe)
	}
	if database.IsUnavailable(err) || isRedisDown(err) {
		return apperr.New(apperr.Unavailable, "a backing service is unavailable")
	}
	return apperr.New(apperr.Internal, "internal server error")
}

func fromFiber(fe *fiber.Error) *apperr.Error {
	switch fe.Code {
	case fiber.StatusNotFound:
		return apperr.New(apperr.NotFound, "route not found")
	case fiber.StatusMethodNotAllowed:
		return apperr.New(apperr.MethodNotAllowed, "method not allowed")
	case fiber.StatusRequestEntityTooLarge:
		e := apperr.New(apperr.Validation, "request body is too large").
			WithDetails(map[string]any{"issue": "body too large"})
		e.Status = fiber.StatusRequestEntityTooLarge
		return e
	case fiber.StatusUnauthorized:
		return apperr.New(apperr.Unauthorized, "authentication required")
	case fiber.StatusForbidden:
		return apperr.New(apperr.Forbidden, "forbidden")
	case fiber.StatusTooManyRequests:
		return apperr.New(apperr.RateLimited, "too many requests")
	case fiber.StatusServiceUnavailable:
		return apperr.New(apperr.Unavailable, "service unavailable")
	}
	if fe.Code >= 400 && fe.Code < 500 {
		e := apperr.New(apperr.Validation, "bad request: "+strconv.Itoa(fe.Code))
		e.Status = fe.Code
		return e
	}
	return apperr.New(apperr.Internal, "internal server error")
}

func isRedisDown(err error) bool {
	if errors.Is(err, redis.ErrClosed) || errors.Is(err, redis.ErrPoolTimeout) {
		return true
	}
	var ne interface{ Timeout() bool }
	return errors.As(err, &ne)
}
