package adminroute

import (
	"mime"
	"net/http"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gofiber/fiber/v2"
)

// crossOrigin is the standard library's cross-site request detection:
// Sec-Fetch-Site when the browser sends it, else Origin against Host. It has
// no trusted origins and no bypass patterns.
var crossOrigin = http.NewCrossOriginProtection()

// errCrossSite and errNotJSON are the refusals of refuseForgery.
var (
	errCrossSite = apperr.New(apperr.Forbidden, "cross-site request refused").
			WithDetails(map[string]any{"issue": "a browser marked this request as coming from another site"})
	errNotJSON = apperr.New(apperr.Forbidden, "request body must be sent as application/json").
			WithDetails(map[string]any{"field": "Content-Type", "issue": "must be application/json"})
)

// refuseForgery refuses a state-changing request that a browser may have
// been made to send by another site (docs/DECISIONS.md, "Admin console"):
// one the browser marks cross-origin, and one whose body is not JSON (an
// HTML form can post text/plain, urlencoded or multipart anywhere without a
// preflight; only a script on the admin's own origin can send JSON). It is
// called for requests authenticated by the session cookie and for the
// public auth routes (login, 2FA verify, refresh), never for bearer calls,
// which a browser cannot forge. GET, HEAD and OPTIONS pass. A multipart
// route (AcceptMultipart) also takes a multipart/form-data body that
// carries X-Requested-With: a custom header makes a cross-site request
// need a preflight, which this API never grants. Errors: FORBIDDEN.
func refuseForgery(c *fiber.Ctx, multipart bool) error {
	switch c.Method() {
	case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
		return nil
	}
	req := &http.Request{Method: c.Method(), Host: string(c.Request().Host()), Header: http.Header{}}
	for _, name := range []string{"Sec-Fetch-Site", fiber.HeaderOrigin} {
		if v := c.Get(name); v != "" {
			req.Header.Set(name, v)
		}
	}
	if crossOrigin.Check(req) != nil {
		return errCrossSite
	}
	if len(c.Body()) > 0 && !isJSON(c.Get(fiber.HeaderContentType)) &&
		!(multipart && isMultipart(c.Get(fiber.HeaderContentType)) && c.Get(fiber.HeaderXRequestedWith) != "") {
		return errNotJSON
	}
	return nil
}

// isJSON reports whether a Content-Type header names application/json
// (parameters such as charset allowed).
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == fiber.MIMEApplicationJSON
}

// isMultipart reports whether a Content-Type header names multipart/form-data.
func isMultipart(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == fiber.MIMEMultipartForm
}

// hasBearer reports whether the request authenticates with an Authorization
// header, which cross-site pages cannot set without the API's consent.
func hasBearer(c *fiber.Ctx) bool {
	return strings.HasPrefix(c.Get(fiber.HeaderAuthorization), "Bearer ")
}
