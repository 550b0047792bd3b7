// Package middleware holds the API's cross-cutting Fiber middleware.
package middleware

import (
	"context"
	"regexp"
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/logging"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

var saneRequestID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// RequestContext assigns the request id (the client's X-Request-Id when sane,
// else a new UUID), echoes it in the response header, and gives the request a
// context with that id and a deadline, so every query made for the request
// is bounded by timeout.
func RequestContext(timeout time.Duration) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id := c.Get(fiber.HeaderXRequestID)
		if !saneRequestID.MatchString(id) {
			id = uuid.NewString()
		}
		c.Locals(httpx.LocalRequestID, id)
		c.Set(fiber.HeaderXRequestID, id)
		ctx, cancel := context.WithTimeout(logging.WithRequestID(context.Background(), id), timeout)
		defer cancel()
		c.SetUserContext(ctx)
		return c.Next()
	}
}
