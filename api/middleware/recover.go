package middleware

import (
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gofiber/fiber/v2"
)

// Recover turns a panic into a logged 500: the stack goes to the log, never
// to the client.
func Recover(log *slog.Logger) fiber.Handler {
	return func(c *fiber.Ctx) (err error) {
		defer func() {
			if r := recover(); r != nil {
				log.ErrorContext(c.UserContext(), "panic", "panic", fmt.Sprint(r), "stack", string(debug.Stack()),
					"method", c.Method(), "path", c.Path())
				err = apperr.New(apperr.Internal, "internal server error")
			}
		}()
		return c.Next()
	}
}
