package gstapi_test

import (
	"image"
	_ "image/png"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/gstportal"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"
)

// pdfQR reads document d's PDF as a client downloads it, checks that its
// text prints the IRN and the acknowledgement number, and decodes the QR
// code printed on it (the only image: the store has no signature image).
func (e *env) pdfQR(t *testing.T, d doc) string {
	t.Helper()
	for _, tool := range []string{"pdfimages", "pdftotext"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing (apt-get install poppler-utils, which make test-tools installs): the PDF cannot be checked", tool)
		}
	}
	body := e.app.Do(t, "GET", "/api/v1/admin/invoices/"+d.ID+"/pdf", testkit.Req{Token: e.token}).Expect(t, http.StatusOK).Body
	dir := t.TempDir()
	file := filepath.Join(dir, "doc.pdf")
	if err := os.WriteFile(file, body, 0o600); err != nil {
		t.Fatal(err)
	}
	text, err := exec.Command("pdftotext", "-raw", file, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	if !strings.Contains(string(text), "IRN: "+*d.EInvoice.IRN) || !strings.Contains(string(text), "Ack No:") {
		t.Fatalf("the PDF does not print the IRN and acknowledgement:\n%s", text)
	}
	if out, err := exec.Command("pdfimages", "-png", file, filepath.Join(dir, "img")).CombinedOutput(); err != nil {
		t.Fatalf("pdfimages: %v: %s", err, out)
	}
	pngs, _ := filepath.Glob(filepath.Join(dir, "img-*.png"))
	if len(pngs) != 1 {
		t.Fatalf("%d images in the PDF, want the QR code alone", len(pngs))
	}
	f, err := os.Open(pngs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]interface{}{gozxing.DecodeHintType_PURE_BARCODE: true})
	if err != nil {
		t.Fatalf("the QR code does not decode: %v", err)
	}
	return res.GetText()
}

// checkQR fails t unless the PDF's QR code verifies with the simulator's
// key and carries d's IRN and number.
func (e *env) checkQR(t *testing.T, d doc) {
	t.Helper()
	var qr gstportal.QRData
	if err := gstportal.VerifySigned(e.sim.PublicKey(), e.pdfQR(t, d), &qr); err != nil {
		t.Fatalf("the printed QR code: %v", err)
	}
	if qr.Irn != *d.EInvoice.IRN || qr.DocNo != d.Number || qr.SellerGstin != storeGSTIN {
		t.Fatalf("the printed QR code carries %+v, want IRN %s of %s", qr, *d.EInvoice.IRN, d.Number)
	}
}
