package mediaapi

import (
	"errors"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/media/storage"
	"github.com/gocommerce/shop/internal/media/storage/local"
	"github.com/gofiber/fiber/v2"
)

// FilesPath is where `shop api` serves a local store's files.
const FilesPath = "/media"

// publicKey is the only shape served: a rendition under products/, named
// by its image and its content (media.renditionKey). Uploads awaiting the worker (uploads/) and anything else
// in the directory are never served, and no path can climb out of it.
var publicKey = regexp.MustCompile(`^products/([0-9a-f]{32}-[0-9a-f]{16})\.(jpg|png)$`)

var contentTypes = map[string]string{"jpg": "image/jpeg", "png": "image/png"}

// serveFile answers GET and HEAD /media/{key} from dir: the type from the
// stored format (never sniffed), immutable caching, an ETag from the name
// (the image's id and the content's hash), inline with a name made of that hash, and
// a policy that keeps a browser from running anything in it.
func serveFile(dir *local.Store) fiber.Handler {
	return func(c *fiber.Ctx) error {
		key := c.Params("*")
		m := publicKey.FindStringSubmatch(key)
		if m == nil {
			return apperr.Missing("file")
		}
		etag := `"` + m[1] + `"`
		setFileHeaders(c, m[2], path.Base(key))
		c.Set(fiber.HeaderETag, etag)
		if match := c.Get(fiber.HeaderIfNoneMatch); match != "" && etagMatches(match, etag) {
			return c.SendStatus(fiber.StatusNotModified)
		}
		f, info, err := dir.Open(key)
		if errors.Is(err, storage.ErrNotFound) || errors.Is(err, storage.ErrInvalidKey) {
			clearFileHeaders(c)
			return apperr.Missing("file")
		}
		if err != nil {
			clearFileHeaders(c)
			return apperr.Wrap(apperr.Unavailable, "media storage unavailable", err)
		}
		c.Set(fiber.HeaderContentLength, strconv.FormatInt(info.Size(), 10))
		// fasthttp closes f once the body is written.
		return c.SendStream(f, int(info.Size()))
	}
}

func setFileHeaders(c *fiber.Ctx, ext, name string) {
	c.Set(fiber.HeaderContentType, contentTypes[ext])
	c.Set(fiber.HeaderCacheControl, storage.CacheControl)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderContentDisposition, storage.Disposition(name))
	c.Set(fiber.HeaderContentSecurityPolicy, "default-src 'none'; sandbox")
}

// clearFileHeaders drops the file's headers before an error answer, which
// must be neither cached for a year nor typed as an image.
func clearFileHeaders(c *fiber.Ctx) {
	for _, h := range []string{fiber.HeaderCacheControl, fiber.HeaderContentDisposition, fiber.HeaderETag} {
		c.Response().Header.Del(h)
	}
}

// etagMatches reports whether an If-None-Match header names etag (or *).
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}
