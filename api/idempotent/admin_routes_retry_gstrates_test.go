package idempotent_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// The GST rate changes on a date: a create answers the change it made, a
// withdrawal of a change already withdrawn is 204 again.
func init() {
	adminRetryCases["POST "+admin+"/tax/rate-changes"] = func(t *testing.T, w retryWorld) retryCase {
		p := variant(t, w, 1).ProductID
		return retryCase{path: admin + "/tax/rate-changes", status: http.StatusCreated,
			body: map[string]any{"productIds": []any{p}, "gstRate": 5, "effectiveFrom": tomorrowIST()},
			once: func(t *testing.T) {
				rowsAre(t, w, 1, `SELECT count(*) FROM gst_rate_changes WHERE jsonb_exists(product_ids, ?)`, p.String())
			}}
	}
	adminRetryCases["DELETE "+admin+"/tax/rate-changes/:rateChangeId"] = func(t *testing.T, w retryWorld) retryCase {
		p := variant(t, w, 1).ProductID
		var rc struct{ ID uuid.UUID }
		w.app.Do(t, http.MethodPost, admin+"/tax/rate-changes", testkit.Req{Token: w.token,
			Body: map[string]any{"productIds": []any{p}, "gstRate": 5, "effectiveFrom": tomorrowIST()}}).
			Expect(t, http.StatusCreated).JSON(t, &rc)
		return retryCase{path: admin + "/tax/rate-changes/" + rc.ID.String(), status: http.StatusNoContent,
			once: func(t *testing.T) {
				rowsAre(t, w, 1, `SELECT count(*) FROM gst_rate_changes WHERE id = ? AND status = 'withdrawn'`, rc.ID)
			}}
	}
}

// tomorrowIST is tomorrow's date in India.
func tomorrowIST() string {
	return time.Now().In(catalog.IST).AddDate(0, 0, 1).Format(time.DateOnly)
}
