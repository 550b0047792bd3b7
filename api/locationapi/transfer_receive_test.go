package locationapi_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
)

type receivedBody struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Items  []struct {
		VariantID string `json:"variantId"`
		Quantity  int    `json:"quantity"`
		Received  int    `json:"received"`
	} `json:"items"`
	Document   *docRef `json:"document"`
	CreditNote *docRef `json:"creditNote"`
}

// A receipt may name the units that arrived: those go on hand at the
// destination and the transfer is partially_received until the rest
// arrives (a receipt without items takes all that is left) or is
// cancelled, which sends back only what is still in transit and credits
// only that part of the transfer's tax invoice.
func TestTransferReceivedInParts(t *testing.T) {
	w := newTransferWorld(t)
	mum := w.location(t, "MUM", "Maharashtra", gstinOf("27", "AABCS1429B"), 10, nil)
	other := fixtures.MustVariant(t, w.app.DB, w.v.ProductID, 5)
	var tr receivedBody
	w.do(t, http.MethodPost, transfersPath, map[string]any{"fromLocationId": w.def.ID, "toLocationId": mum.ID,
		"items": []any{map[string]any{"variantId": w.v.ID, "quantity": 10}, map[string]any{"variantId": other.ID, "quantity": 2}}}).
		Expect(t, http.StatusCreated).JSON(t, &tr)
	path := transfersPath + "/" + tr.ID + "/receive"

	for _, tc := range []struct {
		name  string
		items []any
		field string
		// outside is a request the document refuses (a quantity below 1).
		outside bool
	}{
		{"unknown variant", []any{map[string]any{"variantId": fixtures.MustVariant(t, w.app.DB, w.v.ProductID, 1).ID, "quantity": 1}}, "items[0].variantId", false},
		{"zero", []any{map[string]any{"variantId": w.v.ID, "quantity": 0}}, "items[0].quantity", true},
		{"negative", []any{map[string]any{"variantId": w.v.ID, "quantity": -2}}, "items[0].quantity", true},
		{"more than sent", []any{map[string]any{"variantId": other.ID, "quantity": 1}, map[string]any{"variantId": w.v.ID, "quantity": 11}}, "items[1].quantity", false},
		{"twice", []any{map[string]any{"variantId": w.v.ID, "quantity": 1}, map[string]any{"variantId": w.v.ID, "quantity": 1}}, "items[1].variantId", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			send := w.do
			if tc.outside {
				send = w.bad
			}
			send(t, http.MethodPost, path, map[string]any{"items": tc.items}).ExpectField(t, tc.field)
		})
	}
	// Nothing moved.
	w.levelsAre(t, w.v, map[string]int{w.def.ID: 10, mum.ID: 0}, 10, 0)

	var got receivedBody
	w.do(t, http.MethodPost, path, map[string]any{"items": []any{map[string]any{"variantId": w.v.ID, "quantity": 4}}}).
		Expect(t, http.StatusOK).JSON(t, &got)
	if got.Status != "partially_received" || received(got, w.v.ID.String()) != 4 || received(got, other.ID.String()) != 0 {
		t.Fatalf("after receiving 4: %+v", got)
	}
	w.levelsAre(t, w.v, map[string]int{w.def.ID: 10, mum.ID: 4}, 14, 0)
	if s := w.stock(t, w.v.ID); s.Total.InTransit != 6 {
		t.Fatalf("in transit after 4 of 10 arrived: %+v", s.Total)
	}
	// More than is still in transit is refused: 6 of the 10 remain.
	w.do(t, http.MethodPost, path, map[string]any{"items": []any{map[string]any{"variantId": w.v.ID, "quantity": 7}}}).
		ExpectField(t, "items[0].quantity")

	// Cancelled now: the 6 and the 2 still in transit go back, and the
	// credit note reduces the invoice by those units only.
	var c receivedBody
	w.do(t, http.MethodPost, transfersPath+"/"+tr.ID+"/cancel", nil).Expect(t, http.StatusOK).JSON(t, &c)
	if c.Status != "cancelled" || c.CreditNote == nil || received(c, w.v.ID.String()) != 4 {
		t.Fatalf("cancelled: %+v", c)
	}
	w.levelsAre(t, w.v, map[string]int{w.def.ID: 16, mum.ID: 4}, 20, 0)
	inv, cn := w.document(t, tr.Document.ID), w.document(t, c.CreditNote.ID)
	// Invoice: 10 × 1000.00 + 2 × the other variant's value; the credit
	// note: 6 of the first line and both units of the second.
	if len(cn.Lines) != 2 {
		t.Fatalf("credit note lines: %+v", cn.Lines)
	}
	var want money.Amount
	for i, l := range inv.Lines {
		n := cn.Lines[i].Quantity
		if (l.Quantity == 10 && n != 6) || (l.Quantity == 2 && n != 2) {
			t.Fatalf("credit note line %d: %d units of %d", i+1, n, l.Quantity)
		}
		want += money.MulDivHalfUp(l.TaxableValue, int64(n), int64(l.Quantity))
	}
	if cn.TaxableValue != want || cn.TaxableValue >= inv.TaxableValue || cn.IGSTTotal != cn.TaxableValue.Percent(1800) {
		t.Fatalf("credit note %v taxable %v IGST, want taxable %v of the invoice's %v", cn.TaxableValue, cn.IGSTTotal, want, inv.TaxableValue)
	}
	w.do(t, http.MethodPost, path, nil).ExpectError(t, http.StatusConflict, "CONFLICT")
}

// Two receipts of the last units at once put them on hand once: the
// second finds them received (409) or, asking for them by quantity, no
// longer in transit (400).
func TestConcurrentReceiptsPutNoMoreThanSent(t *testing.T) {
	w := newTransferWorld(t)
	shop := w.location(t, "SHOP", "Karnataka", "", 10, nil)
	for round, body := range []any{nil, map[string]any{"items": []any{map[string]any{"variantId": w.v.ID, "quantity": 3}}}} {
		tr := w.send(t, shop.ID, 3, nil)
		path := transfersPath + "/" + tr.ID + "/receive"
		var wg sync.WaitGroup
		statuses := make([]int, 4)
		for i := range statuses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i] = w.app.Do(t, http.MethodPost, path, testkit.Req{Token: w.admin, Body: body}).Status
			}()
		}
		wg.Wait()
		ok := 0
		for _, s := range statuses {
			switch s {
			case http.StatusOK:
				ok++
			case http.StatusConflict, http.StatusBadRequest:
			default:
				t.Fatalf("round %d: status %d", round, s)
			}
		}
		if ok != 1 {
			t.Fatalf("round %d: %d receipts succeeded (%v), want 1", round, ok, statuses)
		}
		w.levelsAre(t, w.v, map[string]int{w.def.ID: 20 - 3*(round+1), shop.ID: 3 * (round + 1)}, 20, 0)
	}
}

func received(b receivedBody, variant string) int {
	for _, it := range b.Items {
		if it.VariantID == variant {
			return it.Received
		}
	}
	return -1
}
