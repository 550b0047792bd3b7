package invoiceapi_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
	"software.sslmate.com/src/go-pkcs12"
)

// signaturePNG is a w×h PNG of a pen stroke.
func signaturePNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		img.Set(x, h/2+(x%7)-3, color.NRGBA{A: 255, B: 120})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// invoicePDF ships a one-line order and returns its invoice's PDF.
func invoicePDF(t *testing.T, app *testkit.App, token string) []byte {
	t.Helper()
	cust := fixtures.MustCustomer(t, app.DB, "Asha Rao")
	o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust,
		Lines: []fixtures.TaxLine{{Title: "Lamp", HSN: "9405", Qty: 1, Unit: 99900, Rate: 1800}}})
	ship(t, app, token, o, nil)
	d := docsOf(t, app, token, o)[0]
	return app.Do(t, "GET", "/api/v1/admin/invoices/"+d.ID+"/pdf", testkit.Req{Token: token}).Expect(t, http.StatusOK).Body
}

// The tax settings take the authorised signatory's signature as a PNG
// (base64 or a data URL); anything else is 400 naming signatureImage. A
// PUT without it keeps it, "" removes it. Every document's PDF shows it
// above "Authorised Signatory" and the legal name.
func TestSignatureImageIsCheckedAndPrinted(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	put := func(sig any) *testkit.Response {
		body := settingsBody(storeGSTIN, "Karnataka")
		if sig != nil {
			body["signatureImage"] = sig
		}
		return app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: token, Body: body})
	}
	sig := signaturePNG(t, 300, 90)
	var jpeg bytes.Buffer
	jpeg.Write([]byte{0xff, 0xd8, 0xff, 0xe0})
	jpeg.Write(sig[8:])
	for _, tt := range []struct{ name, value string }{
		{"not base64", "not a picture!"},
		{"a JPEG", base64.StdEncoding.EncodeToString(jpeg.Bytes())},
		{"a PNG cut short", base64.StdEncoding.EncodeToString(sig[:len(sig)/2])},
		{"too small", base64.StdEncoding.EncodeToString(signaturePNG(t, 8, 8))},
		{"too wide", base64.StdEncoding.EncodeToString(signaturePNG(t, 2400, 40))},
		{"a data URL of another type", "data:image/gif;base64," + base64.StdEncoding.EncodeToString(sig)},
		{"too large", base64.StdEncoding.EncodeToString(append(bytes.Clone(sig), make([]byte, 300<<10)...))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			put(tt.value).ExpectField(t, "signatureImage")
		})
	}

	var got struct{ SignatureImage *string }
	app.Do(t, "GET", "/api/v1/admin/settings/tax", testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &got)
	if got.SignatureImage != nil {
		t.Fatalf("a refused image was kept: %.40s", *got.SignatureImage)
	}
	text := pdfText(t, invoicePDF(t, app, token))
	mustContain(t, text, "For Sahyadri Handlooms Private Limited", "Authorised Signatory")

	want := "data:image/png;base64," + base64.StdEncoding.EncodeToString(sig)
	put(base64.StdEncoding.EncodeToString(sig)).Expect(t, http.StatusOK).JSON(t, &got)
	if got.SignatureImage == nil || *got.SignatureImage != want {
		t.Fatalf("signatureImage answered %v", got.SignatureImage)
	}
	put(nil).Expect(t, http.StatusOK)
	app.Do(t, "GET", "/api/v1/admin/settings/tax", testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &got)
	if got.SignatureImage == nil || *got.SignatureImage != want {
		t.Fatal("a PUT without signatureImage dropped it")
	}
	pdf := invoicePDF(t, app, token)
	if n := pdfImages(t, pdf); n != 1 {
		t.Fatalf("the PDF holds %d images, want the signature", n)
	}
	mustContain(t, pdfText(t, pdf), "For Sahyadri Handlooms Private Limited", "Authorised Signatory")

	put(want).Expect(t, http.StatusOK) // a data URL is taken too
	put("").Expect(t, http.StatusOK).JSON(t, &got)
	if got.SignatureImage != nil {
		t.Fatal("an empty signatureImage did not remove it")
	}
	if n := pdfImages(t, invoicePDF(t, app, token)); n != 0 {
		t.Fatalf("the PDF holds %d images after the signature was removed", n)
	}
}

// pdfImages counts the images of a PDF with pdfimages (poppler-utils).
func pdfImages(t *testing.T, pdf []byte) int {
	t.Helper()
	out := runPoppler(t, "pdfimages", pdf, "-list")
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n")[2:] {
		// An image with transparency lists its soft mask as a second row.
		if f := strings.Fields(l); len(f) > 2 && f[2] == "image" {
			n++
		}
	}
	return n
}

// runPoppler runs poppler's tool on pdf (written to a file) with args
// before the file name and returns its output; a missing tool fails the
// test (apt-get install poppler-utils; make test-tools installs it).
func runPoppler(t *testing.T, tool string, pdf []byte, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath(tool)
	if err != nil {
		t.Fatalf("%s is missing (apt-get install poppler-utils): the PDF cannot be checked", tool)
	}
	file := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(file, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command(bin, append(args, file)...).CombinedOutput()
	return string(out)
}

// throwawayDSC writes a PKCS#12 file of a new self-signed signing
// certificate for name, locked with password, and returns its path.
func throwawayDSC(t *testing.T, name, password string) string {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: name,
		Organization: []string{name}, Country: []string{"IN"}},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageContentCommitment,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageEmailProtection}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	p12, err := pkcs12.Modern.Encode(key, cert, nil, password)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "dsc.p12")
	if err := os.WriteFile(file, p12, 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// With DSC_P12_FILE and DSC_P12_PASSWORD set, every PDF (the
// administrators' and the customer's) is digitally signed with that
// certificate, a signature pdfsig verifies; without them it is unsigned.
func TestPDFsAreDigitallySignedWithTheConfiguredCertificate(t *testing.T) {
	file := throwawayDSC(t, "Sahyadri Handlooms Private Limited", "s3cret-pass")
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) {
		c.DSCP12File, c.DSCP12Password = file, "s3cret-pass"
	}))
	token := mustTaxIdentity(t, app)
	cust, custToken := testkit.MustCustomer(t, app)
	o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: *cust,
		Lines: []fixtures.TaxLine{{Title: "Lamp", HSN: "9405", Qty: 1, Unit: 99900, Rate: 1800}}})
	ship(t, app, token, o, nil)
	d := docsOf(t, app, token, o)[0]
	for name, pdf := range map[string][]byte{
		"admin":    app.Do(t, "GET", "/api/v1/admin/invoices/"+d.ID+"/pdf", testkit.Req{Token: token}).Expect(t, http.StatusOK).Body,
		"customer": app.Do(t, "GET", "/orders/"+o.ID.String()+"/invoices/"+d.ID+"/pdf", testkit.Req{Token: custToken}).Expect(t, http.StatusOK).Body,
	} {
		out := runPoppler(t, "pdfsig", pdf)
		if !strings.Contains(out, "Signature Validation: Signature is Valid.") ||
			!strings.Contains(out, "Signer Certificate Common Name: Sahyadri Handlooms Private Limited") ||
			!strings.Contains(out, "Total document signed") {
			t.Fatalf("%s PDF: pdfsig does not verify it:\n%s", name, out)
		}
		// The signed file is still the document.
		mustContain(t, pdfText(t, pdf), "Invoice number: "+d.Number, "Authorised Signatory")
	}

	plain := testkit.MustApp(t)
	out := runPoppler(t, "pdfsig", invoicePDF(t, plain, mustTaxIdentity(t, plain)))
	if !strings.Contains(out, "does not contain any signatures") {
		t.Fatalf("an app without DSC_P12_FILE signed its PDF:\n%s", out)
	}
}

// A DSC that cannot be opened (a wrong password, a missing file) stops the
// start, naming DSC_P12_FILE, instead of issuing unsigned PDFs.
func TestUnopenableDSCStopsTheStart(t *testing.T) {
	file := throwawayDSC(t, "Sahyadri Handlooms Private Limited", "right")
	for name, set := range map[string]func(*config.Config){
		"wrong password": func(c *config.Config) { c.DSCP12File, c.DSCP12Password = file, "wrong" },
		"missing file":   func(c *config.Config) { c.DSCP12File = filepath.Join(t.TempDir(), "none.p12") },
	} {
		t.Run(name, func(t *testing.T) {
			_, redisURL := testkit.MustRedis(t)
			cfg := testkit.MustConfig(t, testkit.MustDatabaseURL(t), redisURL)
			set(cfg)
			a, err := app.Open(context.Background(), cfg, slog.New(slog.DiscardHandler))
			if err == nil {
				a.Close()
				t.Fatal("the app started")
			}
			if !strings.Contains(err.Error(), "DSC_P12_FILE") {
				t.Fatalf("error %v does not name DSC_P12_FILE", err)
			}
		})
	}
}
