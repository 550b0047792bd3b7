package console_test

import (
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
)

// The console checks a typed amount before sending it, and its message
// names what is wrong (the server's words for the same values, see
// api/httpx TestValidationMessagesNameTheProblem), not one message for
// every bad amount.
func TestConsoleAmountMessagesNameTheProblem(t *testing.T) {
	bin := testkit.MustChromium(t)
	app := testkit.MustApp(t)
	b := newBrowser(t, bin, app.URL)
	b.open("/admin/signin", app.Config.AppName+" admin")
	got := eval[map[string]string](b, `(async () => {
		const base = document.querySelector('script[type=module]').src.replace(/\/js\/main\.js$/, '');
		const { parseDecimal } = await import(base + '/js/money.js');
		const out = {};
		for (const text of ['-5', '-0.5', '1234567890123', '100000000000.01', '10.005', '1e3', 'abc', '', '12.3.4']) {
			try { out[text] = 'accepted ' + parseDecimal(text).toString(); } catch (e) { out[text] = e.message; }
		}
		for (const text of ['₹ 1,234.50', '0.05', '100000000000', '12.500', '007']) {
			out[text] = parseDecimal(text).toString();
		}
		return out;
	})()`)
	want := map[string]string{
		"-5":              "must not be negative",
		"-0.5":            "must not be negative",
		"1234567890123":   "must be at most 100000000000",
		"100000000000.01": "must be at most 100000000000",
		"10.005":          "must have at most 2 decimal places",
		"1e3":             "must be a number such as 499.50",
		"abc":             "must be a number such as 499.50",
		"":                "must be a number such as 499.50",
		"12.3.4":          "must be a number such as 499.50",
		"₹ 1,234.50":      "1234.50",
		"0.05":            "0.05",
		"100000000000":    "100000000000",
		"12.500":          "12.50",
		"007":             "7",
	}
	for in, w := range want {
		if got[in] != w {
			t.Errorf("parseDecimal(%q) = %q, want %q", in, got[in], w)
		}
	}
	b.check()
}
