package console

import (
	"net/url"
	"strings"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/media"
	"github.com/gofiber/fiber/v2"
)

// contentSecurityPolicy allows only the console's own files and API: no
// inline script or style, no other origin, no framing. img-src takes data:
// for the 2FA QR code, which the API sends as a data: PNG URL.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"

// policyWithImages is contentSecurityPolicy that also shows images from the
// origin of mediaBase, where product image URLs point (a bucket or CDN).
func policyWithImages(mediaBase string) string {
	u, err := url.Parse(mediaBase)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return contentSecurityPolicy
	}
	return strings.Replace(contentSecurityPolicy, "img-src 'self' data:;", "img-src 'self' data: "+u.Scheme+"://"+u.Host+";", 1)
}

// mediaOrigin is where product image URLs point when that is not the
// console's own host: a CDN (MEDIA_PUBLIC_BASE_URL) or the bucket. Local
// files are served by this process, whose address PUBLIC_URL names.
func mediaOrigin(cfg *config.Config) string {
	if cfg.Media.PublicBaseURL == "" && cfg.Media.Storage != "s3" {
		return ""
	}
	return media.PublicBaseURL(cfg)
}

// secure sets the headers of every console response.
func secure(c *fiber.Ctx, csp string) { httpx.SetPageSecurityHeaders(c, csp) }
