package systemapi

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"mime"
	"path"
	"regexp"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gofiber/fiber/v2"
)

// The queue dashboard is asynqmon's page, served to a super admin's
// browser with the console's security headers (httpx.SetPageSecurityHeaders).
// asynqmon's page has two inline scripts (its settings and webpack's
// loader), Material UI injects <style> elements as it renders, and the page
// asked Google for the Roboto and Material Icons fonts. So each page is
// served with a fresh nonce on its inline scripts and in the csp-nonce meta
// that JSS (Material UI's styles) reads, under a policy that allows this
// origin and that nonce only; the fonts are dropped (the icons are SVG,
// the text falls back to Helvetica or Arial), so the page makes no request
// to another host.

// dashboardPolicy is the Content-Security-Policy of the dashboard's answers;
// nonce, when not empty, is the page's.
func dashboardPolicy(nonce string) string {
	inline := ""
	if nonce != "" {
		inline = " 'nonce-" + nonce + "'"
	}
	return "default-src 'self'; script-src 'self'" + inline + "; style-src 'self'" + inline +
		"; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"
}

var (
	// outsideLink is a <link> (stylesheet, preconnect) to another host.
	outsideLink = regexp.MustCompile(`<link[^>]*\shref="(?:https?:)?//[^"]*"[^>]*>`)
	// inlineScript is a <script> start tag without attributes: asynqmon's
	// inline scripts (its files are <script src=...>).
	inlineScript = []byte("<script>")
	head         = []byte("<head>")
)

// secureDashboard serves c with serve under the dashboard's headers, and
// rewrites the page (any text/html answer: asynqmon answers every unknown
// path with its page) as the comment above says.
func secureDashboard(c *fiber.Ctx, serve fiber.Handler) error {
	httpx.SetPageSecurityHeaders(c, dashboardPolicy(""))
	if err := serve(c); err != nil {
		return err
	}
	if !bytes.HasPrefix(c.Response().Header.ContentType(), []byte(fiber.MIMETextHTML)) {
		// asynqmon sniffs its files' types (an SVG becomes text/plain,
		// which a browser refuses to show under nosniff).
		if t := mime.TypeByExtension(path.Ext(c.Path())); t != "" {
			c.Set(fiber.HeaderContentType, t)
		}
		return nil
	}
	nonce, err := newNonce()
	if err != nil {
		return err
	}
	c.Response().SetBodyRaw(rewritePage(c.Response().Body(), nonce))
	c.Set(fiber.HeaderCacheControl, "no-store") // the nonce is this answer's alone
	httpx.SetPageSecurityHeaders(c, dashboardPolicy(nonce))
	return nil
}

// rewritePage drops page's links to other hosts, puts nonce on its inline
// scripts and adds the csp-nonce meta after <head>.
func rewritePage(page []byte, nonce string) []byte {
	page = outsideLink.ReplaceAll(page, nil)
	page = bytes.ReplaceAll(page, inlineScript, []byte(`<script nonce="`+nonce+`">`))
	return bytes.Replace(page, head, []byte(`<head><meta property="csp-nonce" content="`+nonce+`">`), 1)
}

// newNonce returns 128 random bits, base64: a value no page can guess.
func newNonce() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(b), nil
}
