package adminroute

import (
	"encoding/json"
	"testing"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// checkFields must see a field under every key encoding/json would decode
// into it, or a staff member could spell the key differently and slip past.
func TestCheckFields(t *testing.T) {
	rules := []FieldRule{{Field: "customerGroupId", Permission: rbac.PricingWrite}}
	tests := []struct {
		name   string
		role   rbac.Role
		body   string
		reject apperr.Code // "" when allowed
	}{
		{"exact key", rbac.Staff, `{"customerGroupId": "x"}`, apperr.Forbidden},
		{"null value", rbac.Staff, `{"customerGroupId": null}`, apperr.Forbidden},
		{"other case", rbac.Staff, `{"CUSTOMERGROUPID": 1}`, apperr.Forbidden},
		{"unicode folding (long s)", rbac.Staff, `{"cu\u017ftomerGroupId": 1}`, apperr.Forbidden},
		{"escaped key", rbac.Staff, `{"customerGroupI\u0064": 1}`, apperr.Forbidden},
		{"duplicate key", rbac.Staff, `{"name": "a", "customerGroupId": 1, "customerGroupId": 2}`, apperr.Forbidden},
		{"field absent", rbac.Staff, `{"name": "a", "nested": {"customerGroupId": 1}}`, ""},
		{"empty body", rbac.Staff, ``, ""},
		{"not an object", rbac.Staff, `["customerGroupId"]`, apperr.Validation},
		{"trailing data", rbac.Staff, `{} {"customerGroupId": 1}`, apperr.Validation},
		{"role holds the permission", rbac.Admin, `{"customerGroupId": 1}`, ""},
	}
	app := fiber.New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := app.AcquireCtx(&fasthttp.RequestCtx{})
			defer app.ReleaseCtx(c)
			c.Request().SetBodyString(tt.body)
			err := checkFields(c, tt.role, rules)
			if tt.reject == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			e, ok := apperr.As(err)
			if !ok || e.Code != tt.reject {
				t.Fatalf("got %v, want %s", err, tt.reject)
			}
			if tt.reject == apperr.Forbidden && e.Details["field"] != "customerGroupId" {
				t.Fatalf("details %v", e.Details)
			}
		})
	}
	// The spellings above are threats only because encoding/json accepts them.
	for _, body := range []string{`{"CUSTOMERGROUPID": "g"}`, `{"cu\u017ftomerGroupId": "g"}`} {
		var dst struct {
			CustomerGroupID string `json:"customerGroupId"`
		}
		if err := json.Unmarshal([]byte(body), &dst); err != nil || dst.CustomerGroupID != "g" {
			t.Fatalf("encoding/json no longer matches %s (%v): revisit checkFields", body, err)
		}
	}
}
