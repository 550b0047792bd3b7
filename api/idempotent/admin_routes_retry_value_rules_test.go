package idempotent_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// The GST rates that depend on value: a create answers the rule it made
// (not a 409 for its own prefixes), a delete of the rule it deleted is 204
// again (not a 404).
func init() {
	rule := func(prefix string) map[string]any {
		return map[string]any{"hsnPrefixes": []any{prefix}, "threshold": 1000, "rateUpTo": 5, "rateAbove": 18}
	}
	adminRetryCases["POST "+admin+"/tax/value-rules"] = func(t *testing.T, w retryWorld) retryCase {
		return retryCase{path: admin + "/tax/value-rules", status: http.StatusCreated, body: rule("9503"),
			once: func(t *testing.T) {
				rowsAre(t, w, 1, `SELECT count(*) FROM tax_value_rule_prefixes WHERE prefix = '9503'`)
				rowsAre(t, w, 1, `SELECT count(*) FROM tax_value_rules r WHERE threshold = 100000
					AND EXISTS (SELECT 1 FROM tax_value_rule_prefixes x WHERE x.rule_id = r.id AND x.prefix = '9503')`)
			}}
	}
	adminRetryCases["DELETE "+admin+"/tax/value-rules/:valueRuleId"] = func(t *testing.T, w retryWorld) retryCase {
		var r struct{ ID uuid.UUID }
		w.app.Do(t, http.MethodPost, admin+"/tax/value-rules", testkit.Req{Token: w.token, Body: rule("9504")}).
			Expect(t, http.StatusCreated).JSON(t, &r)
		return retryCase{path: admin + "/tax/value-rules/" + r.ID.String(), status: http.StatusNoContent,
			once: func(t *testing.T) {
				rowsAre(t, w, 0, `SELECT count(*) FROM tax_value_rules WHERE id = ?`, r.ID)
			}}
	}
}
