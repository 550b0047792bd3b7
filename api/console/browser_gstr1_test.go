package console_test

import (
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
)

// The GSTR-1 page of a quarterly filer: choosing "Quarterly" and the
// newest quarter shows the return of that quarter (fp its last month), and
// its JSON and Excel links answer the return and the offline tool's
// workbook for the quarter.
func TestConsoleGSTR1Quarter(t *testing.T) {
	bin := needChromium(t)
	app := testkit.MustApp(t)
	owner, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	mustTaxSettings(t, app, token)

	b := newBrowser(t, bin, app.URL)
	b.open("/admin/gstr1", app.Config.AppName+" admin")
	signIn(b, owner.Email)
	b.waitHeading("GSTR-1")
	b.waitText("Return period")
	b.fill("", "Filing", "quarter")
	b.waitUntil("the quarter select", `!!document.getElementById('gstr1-quarter') && document.getElementById('gstr1-quarter').isConnected`)
	period := eval[string](b, `document.getElementById('gstr1-quarter').value`)
	from, to, ok := strings.Cut(period, "..")
	if !ok || len(from) != 7 || len(to) != 7 {
		t.Fatalf("the quarter select's value is %q, want YYYY-MM..YYYY-MM", period)
	}
	fp := to[5:] + to[:4]
	b.waitUntil("the quarter's summary", `[...document.querySelectorAll('main dd')].some((d) => d.textContent === `+js(fp)+`)`)
	type answer struct {
		Status int    `json:"status"`
		Type   string `json:"type"`
		Head   string `json:"head"`
		File   string `json:"file"`
	}
	fetchLink := func(text string) answer {
		return eval[answer](b, `(async () => {
			const a = [...document.querySelectorAll('main a')].find((a) => a.textContent === `+js(text)+`);
			if (!a) return { status: 0, type: 'no link', head: '' };
			const res = await fetch(a.href, { credentials: 'same-origin' });
			const bytes = new Uint8Array(await res.arrayBuffer()).slice(0, 16);
			return { status: res.status, type: res.headers.get('Content-Type') || '', head: String.fromCharCode(...bytes),
				file: res.headers.get('Content-Disposition') || '' };
		})()`)
	}
	if got := fetchLink("Download Excel workbook"); got.Status != 200 || !strings.Contains(got.Type, "spreadsheetml") || !strings.HasPrefix(got.Head, "PK") ||
		!strings.HasSuffix(got.File, "-"+fp+`.xlsx"`) {
		t.Fatalf("the Excel link answered %+v", got)
	}
	if got := fetchLink("Download JSON"); got.Status != 200 || !strings.Contains(got.Type, "json") || !strings.Contains(got.Head, "{") {
		t.Fatalf("the JSON link answered %+v", got)
	}
	b.accessible()
	b.check()
}
