package paymentapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
)

// A courier's own remittance file is uploaded as it comes: the first time
// with a column mapping, saved under the courier's name, then with the
// name alone. Amounts written as couriers write them ("₹1,200.00") are
// read; the job lists every row with its outcome; the payment keeps the
// UTR, which the order shows. A mapping naming a column the file lacks is
// refused and not remembered; a courier without a saved mapping must send
// one.
func TestRemittanceCourierFileWithSavedMapping(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	codSettings(t, app, 0, 0, 10)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 30000, Variants: []testkit.StoreVariant{{Inventory: 50}}})
	a, b := placeCOD(t, app, p.Variants[0].ID, 4), placeCOD(t, app, p.Variants[0].ID, 1)
	_, staff := testkit.MustAdmin(t, app, "staff")
	mapping := `{"orderNumber": "Order ID", "amount": "COD Amount", "reference": "UTR No"}`

	file := func(rows ...string) []byte {
		out := "Waybill,Order ID,COD Amount,UTR No,Remitted On\n"
		for _, r := range rows {
			out += r + "\n"
		}
		return []byte(out)
	}
	bad := func(want string, data []byte, fields ...string) {
		t.Helper()
		r := multipartFile(t, data, fields...)
		r.Token, r.Invalid = staff, true
		app.Do(t, http.MethodPost, "/api/v1/admin/payments/cod-remittance", r).ExpectField(t, want)
	}
	bad("courier", file(), "courier", "Shiprocket")
	bad("mapping", file(), "courier", "Shiprocket", "mapping", `{"order": "Order ID"}`)
	bad("mapping.amount", file(), "courier", "Shiprocket", "mapping", `{"orderNumber": "Order ID"}`)
	bad("file", file(`SR1,`+a.OrderNumber+`,1200,UTR1,2026-11-28`), "courier", "Shiprocket",
		"mapping", `{"orderNumber": "Order ID", "amount": "Amount Remitted"}`)
	var saved struct {
		Data []struct {
			Courier string            `json:"courier"`
			Mapping map[string]string `json:"mapping"`
		} `json:"data"`
	}
	app.Do(t, http.MethodGet, "/api/v1/admin/payments/cod-remittance/mappings", testkit.Req{Token: staff}).Expect(t, http.StatusOK).JSON(t, &saved)
	if len(saved.Data) != 0 {
		t.Fatalf("a refused file's mapping was saved: %+v", saved.Data)
	}

	job := submit(t, app, staff, multipartFile(t, file(
		`SR1001,`+a.OrderNumber+`,"₹1,200.00",UTR0000111,2026-11-28`,
		`SR1002,ORD-999999,300,UTR0000112,2026-11-28`), "courier", "Shiprocket", "mapping", mapping))
	res := waitJob(t, app, staff, job)
	want := fmt.Sprint([]string{"1 " + a.OrderNumber + " 1200 UTR0000111 applied ", "2 ORD-999999 300 UTR0000112 failed unknown_order"})
	if res.Applied != 1 || fmt.Sprint(res.outcomes()) != want {
		t.Fatalf("result: applied %d, rows %v; want %v", res.Applied, res.outcomes(), want)
	}
	app.Do(t, http.MethodGet, "/api/v1/admin/payments/cod-remittance/mappings", testkit.Req{Token: staff}).Expect(t, http.StatusOK).JSON(t, &saved)
	if len(saved.Data) != 1 || saved.Data[0].Courier != "Shiprocket" || saved.Data[0].Mapping["amount"] != "COD Amount" ||
		saved.Data[0].Mapping["reference"] != "UTR No" {
		t.Fatalf("saved mappings: %+v", saved.Data)
	}

	// The next file of the courier: its name is enough (any case).
	job = submit(t, app, staff, multipartFile(t, file(`SR1003,`+b.OrderNumber+`,300.00,UTR0000113,2026-11-29`), "courier", "shiprocket"))
	if res = waitJob(t, app, staff, job); res.Applied != 1 || len(res.Rows) != 1 || res.Rows[0].Outcome != "applied" {
		t.Fatalf("second file: %+v", res)
	}
	for o, utr := range map[string]string{a.ID.String(): "UTR0000111", b.ID.String(): "UTR0000113"} {
		var d struct {
			PaymentStatus string `json:"paymentStatus"`
			Payments      []struct {
				Method    string `json:"method"`
				Reference string `json:"reference"`
			} `json:"payments"`
		}
		app.Do(t, http.MethodGet, "/api/v1/admin/orders/"+o, testkit.Req{Token: staff}).Expect(t, http.StatusOK).JSON(t, &d)
		if d.PaymentStatus != "paid" || len(d.Payments) != 1 || d.Payments[0].Method != "cod" || d.Payments[0].Reference != utr {
			t.Fatalf("order %s: %+v, want paid with reference %s", o, d, utr)
		}
	}
}
