package idempotent_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// A keyed transfer to a location under another GSTIN, retried after its
// process died between the commit and keeping its answer, answers with the
// transfer and tax invoice it made: one invoice, one number; a keyed cancel
// retried so issues one credit note.
func TestTransferRetryIssuesOneDocument(t *testing.T) {
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	w := retryWorld{app: app, token: token}
	store := "29AABCS1429B1Z"
	store += string(gstin.CheckChar(store))
	other := "27AABCS1429B1Z"
	other += string(gstin.CheckChar(other))
	app.Do(t, http.MethodPut, admin+"/settings/tax", testkit.Req{Token: token, Body: map[string]any{
		"legalName": "Sahyadri Handlooms Private Limited", "gstin": store, "address": map[string]any{
			"line1": "14 Commercial Street", "line2": "", "city": "Bengaluru", "state": "Karnataka", "pincode": "560001"}}}).
		Expect(t, http.StatusOK)
	to := app.Do(t, http.MethodPost, admin+"/locations", testkit.Req{Token: token, Body: map[string]any{
		"name": "Mumbai", "code": "MUM", "priority": 20, "gstin": other,
		"address": map[string]any{"line1": "1 Dock Road", "city": "Mumbai", "state": "Maharashtra", "pincode": "400001"}}}).
		Expect(t, http.StatusCreated).Map(t)["id"].(string)
	v := variant(t, w, 10)

	req := keyed(testkit.Req{Token: token}, "retry-"+uuid.NewString(), map[string]any{"fromLocationId": defaultLocation(t, app),
		"toLocationId": to, "items": []any{map[string]any{"variantId": v.ID, "quantity": 2, "value": 250}}})
	first := app.Do(t, http.MethodPost, admin+"/inventory/transfers", req).Expect(t, http.StatusCreated)
	crashBeforeAnswerKept(t, app, req.Headers["Idempotency-Key"])
	retry := app.Do(t, http.MethodPost, admin+"/inventory/transfers", req).Expect(t, http.StatusCreated)
	if !sameJSON(first.Body, retry.Body) {
		t.Fatalf("the retry answered\n%s\nthe first run\n%s", retry.Body, first.Body)
	}
	m := first.Map(t)
	doc, _ := m["document"].(map[string]any)
	if doc == nil || doc["type"] != "invoice" {
		t.Fatalf("the transfer names no invoice: %s", first.Body)
	}
	id := m["id"].(string)
	inventoryIs(t, w, v, 8)
	rowsAre(t, w, 1, `SELECT count(*) FROM tax_documents WHERE transfer_id = ?`, id)
	rowsAre(t, w, 1, `SELECT count(*) FROM tax_documents WHERE supplier_gstin = ? AND number LIKE 'STI/%'`, store)

	cancel := keyed(testkit.Req{Token: token}, "retry-"+uuid.NewString(), nil)
	first = app.Do(t, http.MethodPost, admin+"/inventory/transfers/"+id+"/cancel", cancel).Expect(t, http.StatusOK)
	crashBeforeAnswerKept(t, app, cancel.Headers["Idempotency-Key"])
	retry = app.Do(t, http.MethodPost, admin+"/inventory/transfers/"+id+"/cancel", cancel).Expect(t, http.StatusOK)
	if !sameJSON(first.Body, retry.Body) {
		t.Fatalf("the cancel's retry answered\n%s\nthe first run\n%s", retry.Body, first.Body)
	}
	rowsAre(t, w, 1, `SELECT count(*) FROM tax_documents WHERE transfer_id = ? AND doc_type = 'credit_note'`, id)
	inventoryIs(t, w, v, 10)
}
