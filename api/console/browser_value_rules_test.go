package console_test

import (
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
)

// The tax settings page lists the GST rules whose rate depends on value
// (the GST 2.0 apparel rule of every store first), creates one, showing
// the API's complaint beside the field it names, and deletes it after
// asking; a viewer sees the rules without the controls.
func TestConsoleValueRules(t *testing.T) {
	bin := needChromium(t)
	app := testkit.MustApp(t)
	staff, _ := testkit.MustAdmin(t, app, string(rbac.Staff))
	viewer, _ := testkit.MustAdmin(t, app, string(rbac.Viewer))
	rows := func(b *browser) []string {
		return eval[[]string](b, `(() => {
			const s = [...document.querySelectorAll('main section')].find((x) => x.querySelector('h2')?.textContent === 'Rates that depend on value');
			return s ? [...s.querySelectorAll('tbody tr')].map((tr) => tr.innerText.replace(/\s+/g, ' ').trim()) : ['no section'];
		})()`)
	}

	b := newBrowser(t, bin, app.URL)
	b.open("/admin/tax", app.Config.AppName+" admin")
	signIn(b, staff.Email)
	b.waitHeading("Tax settings")
	b.waitText("Rates that depend on value")
	if got := rows(b); len(got) != 1 || !strings.Contains(got[0], "61, 62, 63, 64") || !strings.Contains(got[0], "5%") ||
		!strings.Contains(got[0], "18%") {
		t.Fatalf("rules shown %q, want the GST 2.0 apparel rule", got)
	}
	b.press("", "New value rule")
	b.fill("New value rule", "HSN prefixes", "9503, 9")
	b.fill("New value rule", "Value a piece", "1000")
	b.press("New value rule", "Create rule")
	b.waitUntil("the field's error", `document.body.innerText.includes("HSN prefixes (line 2) must be 2 to 8 digits")`)
	b.fill("New value rule", "HSN prefixes", "9503 9504")
	b.press("New value rule", "Create rule")
	b.waitText("Value rule created.")
	if got := rows(b); len(got) != 2 || !strings.Contains(got[1], "9503, 9504") {
		t.Fatalf("rules shown %q after the create", got)
	}
	b.press("", "Delete the rule for HSN 9503, 9504")
	b.press("", "Delete rule")
	b.waitText("Value rule deleted.")
	if got := rows(b); len(got) != 1 {
		t.Fatalf("rules shown %q after the delete", got)
	}
	b.accessible()

	v := newBrowser(t, bin, app.URL)
	v.open("/admin/tax", app.Config.AppName+" admin")
	signIn(v, viewer.Email)
	v.waitHeading("Tax settings")
	v.waitText("Rates that depend on value")
	if got := rows(v); len(got) != 1 {
		t.Fatalf("a viewer sees %q", got)
	}
	for _, c := range v.controls() {
		if strings.Contains(c, "New value rule") || strings.Contains(c, "Delete") {
			t.Fatalf("a viewer is offered %q", c)
		}
	}
}
