package invoice

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/png"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"gorm.io/gorm"
)

// Limits of the signatory's image: a signature is a small picture, and
// every PDF embeds it.
const (
	maxSignatureBytes  = 256 << 10
	maxSignaturePixels = 2000
	minSignaturePixels = 16
)

// pngMagic opens every PNG file.
var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// decodeSignature reads a signature image given as base64 or as a data
// URL ("data:image/png;base64,..."), checks that it is a PNG of sane size
// (at most 256 KiB, 16 to 2000 pixels a side) and returns its bytes.
// Errors: VALIDATION_ERROR naming signatureImage.
func decodeSignature(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "data:"); ok {
		media, data, found := strings.Cut(rest, ",")
		if !found || !strings.EqualFold(media, "image/png;base64") {
			return nil, apperr.Invalid("signatureImage", "must be a PNG as base64 or a data:image/png;base64 URL")
		}
		s = data
	}
	if base64.StdEncoding.DecodedLen(len(s)) > maxSignatureBytes+3 {
		return nil, apperr.Invalid("signatureImage", fmt.Sprintf("must be at most %d KiB", maxSignatureBytes>>10))
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, apperr.Invalid("signatureImage", "must be a PNG as base64 or a data:image/png;base64 URL")
	}
	if len(b) > maxSignatureBytes {
		return nil, apperr.Invalid("signatureImage", fmt.Sprintf("must be at most %d KiB", maxSignatureBytes>>10))
	}
	if !bytes.HasPrefix(b, pngMagic) {
		return nil, apperr.Invalid("signatureImage", "must be a PNG image")
	}
	// The whole image decodes: a PDF cannot embed a broken one.
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, apperr.Invalid("signatureImage", "must be a PNG image that decodes")
	}
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	if w < minSignaturePixels || h < minSignaturePixels || w > maxSignaturePixels || h > maxSignaturePixels {
		return nil, apperr.Invalid("signatureImage", fmt.Sprintf("must be %d to %d pixels a side, not %d×%d",
			minSignaturePixels, maxSignaturePixels, w, h))
	}
	return b, nil
}

// signatureURL is a signature image as the settings answer it.
func signatureURL(b []byte) *string {
	if len(b) == 0 {
		return nil
	}
	s := "data:image/png;base64," + base64.StdEncoding.EncodeToString(b)
	return &s
}

// signatureImage reads the signatory's image in db; nil when none is set.
func signatureImage(db *gorm.DB) ([]byte, error) {
	var row struct{ SignatureImage []byte }
	if err := db.Raw(`SELECT signature_image FROM tax_settings`).Scan(&row).Error; err != nil {
		return nil, fmt.Errorf("invoice.signature: %w", err)
	}
	return row.SignatureImage, nil
}
