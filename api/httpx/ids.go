package httpx

import (
	"fmt"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// QueryIDs parses an optional comma-separated list of at most max UUIDs
// (?ids=a,b,c), as a page asks for the names of the rows it refers to; nil
// when the parameter is absent. Errors: VALIDATION_ERROR on name.
func QueryIDs(c *fiber.Ctx, name string, max int) ([]uuid.UUID, error) {
	s := c.Query(name)
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > max {
		return nil, apperr.Invalid(name, fmt.Sprintf("must list at most %d ids", max))
	}
	ids := make([]uuid.UUID, len(parts))
	for i, p := range parts {
		id, err := uuid.Parse(strings.TrimSpace(p))
		if err != nil {
			return nil, apperr.Invalid(name, "must be UUIDs separated by commas")
		}
		ids[i] = id
	}
	return ids, nil
}
