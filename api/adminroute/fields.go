package adminroute

import (
	"encoding/json"
	"strings"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gofiber/fiber/v2"
)

// FieldRule says that naming Field in a route's JSON body needs Permission
// beyond the route's own: a staff member may edit a product but not its
// price (docs/DECISIONS.md, "Field permissions").
type FieldRule struct {
	// Field is a top-level key of the request body.
	Field      string
	Permission rbac.Permission
}

// FieldPermission declares that each of fields, when present in the body
// (with a value or null), needs perm.
func FieldPermission(perm rbac.Permission, fields ...string) Option {
	return func(r *Route) {
		for _, f := range fields {
			r.Fields = append(r.Fields, FieldRule{Field: f, Permission: perm})
		}
	}
}

// checkFields refuses a body naming a field whose permission role lacks:
// 403 FORBIDDEN with details.field. The body is only read when role lacks
// one of the route's field permissions. Keys match as encoding/json matches
// them onto the handler's struct (case-insensitively, with Unicode folding),
// so "PRICE" or "priſe" cannot slip past. A body that is not a JSON object
// is refused as the handler would refuse it (400).
func checkFields(c *fiber.Ctx, role rbac.Role, rules []FieldRule) error {
	var denied []FieldRule
	for _, fr := range rules {
		if !rbac.Allows(role, fr.Permission) {
			denied = append(denied, fr)
		}
	}
	if len(denied) == 0 {
		return nil
	}
	var body map[string]json.RawMessage
	if err := httpx.DecodeJSON(c.Body(), &body); err != nil {
		return err
	}
	for _, fr := range denied {
		for key := range body {
			if strings.EqualFold(key, fr.Field) {
				return apperr.New(apperr.Forbidden, "your role may not change "+fr.Field).
					WithDetails(map[string]any{"field": fr.Field, "issue": "needs the " + fr.Permission.Name + " permission"})
			}
		}
	}
	return nil
}
