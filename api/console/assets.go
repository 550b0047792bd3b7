package console

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"path"
	"sort"
	"strings"

	"github.com/gofiber/fiber/v2"
)

//go:embed static
var staticFS embed.FS

// assetsDir is the URL segment of the versioned files: /admin/assets/<version>/app.css.
const assetsDir = "assets"

// assetsPlaceholder in index.html becomes the versioned base URL.
const assetsPlaceholder = "{{assets}}"

// assets are the console's files held in memory, gzipped where it pays.
// Every file except index.html is served under a version derived from the
// content of all files, so a URL's content never changes: the files are
// cached for a year, and a new release changes every URL at once (ES module
// imports are relative, so one version must cover them all).
type assets struct {
	version string
	index   file
	files   map[string]file
}

type file struct {
	body, gzipped []byte
	contentType   string
	etag          string
}

// mustAssets loads the embedded files. It panics when they are missing,
// which the build and the package's tests rule out.
func mustAssets() *assets {
	root, err := fs.Sub(staticFS, "static")
	if err != nil {
		panic("console: " + err.Error())
	}
	a, err := loadAssets(root)
	if err != nil {
		panic("console: " + err.Error())
	}
	return a
}

func loadAssets(root fs.FS) (*assets, error) {
	raw := map[string][]byte{}
	err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(root, p)
		raw[p] = b
		return err
	})
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(raw))
	for p := range raw {
		names = append(names, p)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, p := range names {
		h.Write([]byte(p))
		h.Write([]byte{0})
		h.Write(raw[p])
		h.Write([]byte{0})
	}
	a := &assets{version: hex.EncodeToString(h.Sum(nil))[:16], files: map[string]file{}}
	indexHTML, ok := raw["index.html"]
	if !ok {
		return nil, fs.ErrNotExist
	}
	delete(raw, "index.html")
	base := Path + "/" + assetsDir + "/" + a.version
	a.index = newFile("index.html", bytes.ReplaceAll(indexHTML, []byte(assetsPlaceholder), []byte(base)), a.version)
	for p, b := range raw {
		a.files[p] = newFile(p, b, a.version)
	}
	return a, nil
}

func newFile(name string, body []byte, version string) file {
	ct := mime.TypeByExtension(path.Ext(name))
	switch path.Ext(name) {
	case ".js":
		ct = "text/javascript; charset=utf-8"
	case ".css":
		ct = "text/css; charset=utf-8"
	case ".html":
		ct = fiber.MIMETextHTMLCharsetUTF8
	}
	if ct == "" {
		ct = "application/octet-stream"
	}
	f := file{body: body, contentType: ct, etag: `"` + version + `"`}
	if strings.HasPrefix(ct, "text/") || strings.HasPrefix(ct, "image/svg") || strings.Contains(ct, "json") {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(body)
		zw.Close()
		if buf.Len() < len(body) {
			f.gzipped = buf.Bytes()
		}
	}
	return f
}

// serveIndex answers the app's page for any client-side route. It is
// revalidated on every load (its ETag is the release), so a new release is
// picked up at once.
func (a *assets) serveIndex(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-cache")
	return a.index.send(c)
}

// serveAsset answers /admin/assets/<version>/<name>. A request for another
// version (a page of the previous release during a rolling deploy) gets the
// current file, never cached, rather than a broken page.
func (a *assets) serveAsset(c *fiber.Ctx, rest string) error {
	version, name, ok := strings.Cut(rest, "/")
	f, found := a.files[name]
	if !ok || !found {
		return fiber.ErrNotFound
	}
	if version == a.version {
		c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
	} else {
		c.Set(fiber.HeaderCacheControl, "no-store")
	}
	return f.send(c)
}

func (f file) send(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, f.contentType)
	c.Set(fiber.HeaderETag, f.etag)
	c.Vary(fiber.HeaderAcceptEncoding)
	if c.Get(fiber.HeaderIfNoneMatch) == f.etag {
		return c.SendStatus(fiber.StatusNotModified)
	}
	if f.gzipped != nil && acceptsGzip(c.Get(fiber.HeaderAcceptEncoding)) {
		c.Set(fiber.HeaderContentEncoding, "gzip")
		return c.Send(f.gzipped)
	}
	return c.Send(f.body)
}

// acceptsGzip reports whether an Accept-Encoding header lists gzip with a
// non-zero quality.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
