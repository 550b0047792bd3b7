package console_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
)

// mustPNG writes a w×h PNG with a stroke across it to dir/name and returns
// its path and bytes.
func mustPNG(t *testing.T, dir, name string, w, h int) (string, []byte) {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		img.Set(x, h/2+(x%7)-3, color.NRGBA{R: 10, G: 20, B: 120, A: 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return file, buf.Bytes()
}

type taxSettingsView struct {
	LegalName        string  `json:"legalName"`
	TurnoverAbove5Cr bool    `json:"turnoverAbove5Cr"`
	SignatureImage   *string `json:"signatureImage"`
}

func taxSettings(t *testing.T, app *testkit.App, token string) taxSettingsView {
	t.Helper()
	var s taxSettingsView
	app.Do(t, "GET", "/api/v1/admin/settings/tax", testkit.Req{Token: token}).Expect(t, 200).JSON(t, &s)
	return s
}

// The owner uploads the authorised signatory's signature on the tax
// settings page: an image the server refuses (too small) is explained
// beside the field, a good PNG is previewed and the API's tax settings
// carry it; saving the identity (with the turnover box ticked) keeps it;
// removing it asks first. An admin, who may not change tax settings, sees
// the signature but no upload.
func TestConsoleTaxSignature(t *testing.T) {
	bin := needChromium(t)
	app := testkit.MustApp(t)
	owner, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	admin, _ := testkit.MustAdmin(t, app, string(rbac.Admin))
	mustTaxSettings(t, app, token)
	dir := t.TempDir()
	tiny, _ := mustPNG(t, dir, "tiny.png", 10, 10)
	good, goodBytes := mustPNG(t, dir, "signature.png", 240, 80)
	want := "data:image/png;base64," + base64.StdEncoding.EncodeToString(goodBytes)

	b := newBrowser(t, bin, app.URL)
	b.open("/admin/tax", app.Config.AppName+" admin")
	signIn(b, owner.Email)
	b.waitHeading("Tax settings")
	b.waitText("No signature yet")
	b.accessible()

	b.do("choose the tiny image", chromedp.SetUploadFiles(chromedp.CSS(`form[aria-label="Signature"] input[type=file]`), []string{tiny}))
	b.press("Signature", "Upload signature")
	b.waitUntil("the server's refusal beside the field", `(() => {
		const input = document.querySelector('form[aria-label="Signature"] input[type=file]');
		return input.getAttribute('aria-invalid') === 'true' &&
			document.getElementById(input.id + '-err').textContent === 'Signature image must be 16 to 2000 pixels a side, not 10×10.';
	})()`)
	if s := taxSettings(t, app, token); s.SignatureImage != nil {
		t.Fatal("a refused image was stored")
	}

	b.do("choose the signature", chromedp.SetUploadFiles(chromedp.CSS(`form[aria-label="Signature"] input[type=file]`), []string{good}))
	b.press("Signature", "Upload signature")
	b.waitText("Signature saved")
	b.waitUntil("the preview", `(() => { const img = document.querySelector('img.signature-preview');
		return !!img && img.complete && img.naturalWidth === 240 && img.naturalHeight === 80; })()`)
	if got := eval[string](b, `document.querySelector('img.signature-preview').getAttribute('src')`); got != want {
		t.Fatalf("the preview shows %.60q…, want the uploaded PNG", got)
	}
	if s := taxSettings(t, app, token); s.SignatureImage == nil || *s.SignatureImage != want {
		t.Fatal("the API's tax settings do not carry the uploaded signature")
	}
	b.accessible()

	// Saving the identity keeps the signature; the turnover box is saved.
	b.fill("GST identity", "Aggregate turnover above", "true")
	b.press("GST identity", "Save")
	b.waitText("Tax settings saved.")
	if s := taxSettings(t, app, token); !s.TurnoverAbove5Cr || s.SignatureImage == nil || *s.SignatureImage != want ||
		s.LegalName != "Sahyadri Handlooms Private Limited" {
		t.Fatalf("after saving the identity: turnover %v, signature kept %v, legal name %q", s.TurnoverAbove5Cr,
			s.SignatureImage != nil && *s.SignatureImage == want, s.LegalName)
	}
	b.waitUntil("the preview after the save", `!!document.querySelector('img.signature-preview')`)

	b.press("Signature", "Remove signature")
	b.press("", "Remove signature")
	b.waitText("Signature removed.")
	b.waitText("No signature yet")
	if s := taxSettings(t, app, token); s.SignatureImage != nil || !s.TurnoverAbove5Cr {
		t.Fatalf("after removing: signature %v, turnover %v", s.SignatureImage != nil, s.TurnoverAbove5Cr)
	}
	b.check()

	// An admin reads the signature, and may not change it.
	app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: token, Body: map[string]any{
		"legalName": "Sahyadri Handlooms Private Limited", "gstin": "29AABCS1429B1Z" + string(gstin.CheckChar("29AABCS1429B1Z")),
		"address":        map[string]any{"line1": "14 Commercial Street", "line2": "Shivajinagar", "city": "Bengaluru", "state": "Karnataka", "pincode": "560001"},
		"signatureImage": want}}).Expect(t, 200)
	a := b.newTab(t)
	a.open("/admin/tax", app.Config.AppName+" admin")
	signIn(a, admin.Email)
	a.waitHeading("Tax settings")
	a.waitUntil("the preview", `!!document.querySelector('img.signature-preview')`)
	if n := eval[int](a, `document.querySelectorAll('main input[type=file], form[aria-label="Signature"]').length`); n != 0 {
		t.Fatalf("an admin sees %d signature controls", n)
	}
	a.check()
}
