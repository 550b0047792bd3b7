package mediaapi

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"mime"
	"regexp"
	"strings"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/media"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// upload is POST /admin/products/{productId}/images: multipart fields
// file, alt (optional) and variantIds (repeated, optional).
func (h *handlers) upload(c *fiber.Ctx) error {
	productID, err := httpx.PathUUID(c, "productId", "product")
	if err != nil {
		return err
	}
	if mt, _, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType)); err != nil || mt != fiber.MIMEMultipartForm {
		return apperr.Invalid("Content-Type", "must be multipart/form-data")
	}
	form, err := c.MultipartForm()
	if err != nil {
		return apperr.New(apperr.Validation, "the multipart body does not parse").
			WithDetails(map[string]any{"issue": "malformed multipart body"})
	}
	files := form.File["file"]
	if len(files) != 1 {
		return apperr.Invalid("file", "must be exactly one file")
	}
	if files[0].Size > h.media.Limits().MaxBytes {
		return media.ErrTooLarge
	}
	in := media.UploadInput{}
	if alt := form.Value["alt"]; len(alt) > 1 {
		return apperr.Invalid("alt", "must be given at most once")
	} else if len(alt) == 1 {
		in.Alt = strings.TrimSpace(alt[0])
	}
	if in.VariantIDs, err = variantIDs(form.Value["variantIds"]); err != nil {
		return err
	}
	f, err := files[0].Open()
	if err != nil {
		return apperr.Wrap(apperr.Validation, "the file part does not read", err)
	}
	defer f.Close()
	if in.Data, err = io.ReadAll(io.LimitReader(f, h.media.Limits().MaxBytes+1)); err != nil {
		return apperr.Wrap(apperr.Validation, "the file part does not read", err)
	}
	sum := sha256.Sum256(in.Data)
	// The file's bytes are not JSON, so the audit entry records what they were.
	adminroute.AddAuditMeta(c, "request", map[string]any{
		"productId": productID, "alt": in.Alt, "variantIds": in.VariantIDs,
		"file": map[string]any{"bytes": len(in.Data), "sha256": hex.EncodeToString(sum[:])},
	})
	img, err := h.media.Upload(c.UserContext(), productID, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(img)
}

// variantIDs parses the repeated variantIds field; a value may also hold
// several ids separated by commas (what a plain HTML form sends).
func variantIDs(values []string) ([]uuid.UUID, error) {
	out := []uuid.UUID{}
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part == "" {
				continue
			}
			id, err := uuid.Parse(part)
			if err != nil || !canonical.MatchString(strings.ToLower(part)) {
				return nil, apperr.Invalid("variantIds", "must be variant ids (UUIDs)")
			}
			out = append(out, id)
		}
	}
	if len(out) > 100 {
		return nil, apperr.Invalid("variantIds", "must name at most 100 variants")
	}
	return out, nil
}

var canonical = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
