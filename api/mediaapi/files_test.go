package mediaapi_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/media/mediatest"
	"github.com/gocommerce/shop/internal/testkit"
)

// The local store's files: typed by the stored format, never sniffed,
// cached for a year with an ETag, inline under the hash's name; nothing
// else in the directory is reachable.
func TestMediaFilesAreServedSafely(t *testing.T) {
	e := newEnv(t)
	p := e.product(t)
	e.upload(t, p.ID, form{file: mediatest.PNG(64, 48, true), name: `"><script>.png`}, false).Expect(t, http.StatusCreated)
	img := e.settled(t, p.ID)[0]
	_, key, _ := strings.Cut(str(img["renditions"].(map[string]any)["thumb"]), "/media/")
	resp := e.app.Do(t, http.MethodGet, "/media/"+key, testkit.Req{}).Expect(t, http.StatusOK)
	name := key[strings.LastIndex(key, "/")+1:]
	for h, want := range map[string]string{
		"Content-Type":            "image/png",
		"Cache-Control":           "public, max-age=31536000, immutable",
		"X-Content-Type-Options":  "nosniff",
		"Content-Disposition":     `inline; filename="` + name + `"`,
		"Content-Security-Policy": "default-src 'none'; sandbox",
		"ETag":                    `"` + strings.TrimSuffix(name, ".png") + `"`,
	} {
		if got := resp.Header.Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
	if !strings.HasPrefix(string(resp.Body), "\x89PNG") {
		t.Fatalf("body is not the PNG")
	}
	e.app.Do(t, http.MethodGet, "/media/"+key, testkit.Req{Headers: map[string]string{"If-None-Match": resp.Header.Get("ETag")}}).
		Expect(t, http.StatusNotModified)

	// Something planted in the directory, and every way around the pattern.
	planted := filepath.Join(e.app.Config.Media.Dir, "uploads", "planted")
	os.MkdirAll(filepath.Dir(planted), 0o755)
	os.WriteFile(planted, []byte("<script>alert(1)</script>"), 0o644)
	dir := key[:strings.LastIndex(key, "/")]
	for _, path := range []string{
		"/media/uploads/planted", "/media/" + dir, "/media/" + dir + "/", "/media/products/", "/media/",
		"/media/../go.mod", "/media/%2e%2e/%2e%2e/etc/passwd", "/media/" + dir + "/..%2f..%2f..%2fuploads%2fplanted",
		"/media/" + strings.TrimSuffix(key, ".png") + ".html", "/media/" + strings.Replace(key, name[:4], "0000", 1),
	} {
		r := e.app.Do(t, http.MethodGet, path, testkit.Req{Invalid: true})
		if r.Status != http.StatusNotFound || strings.Contains(string(r.Body), "script") || r.Header.Get("Cache-Control") != "" {
			t.Errorf("GET %s: %d %v %s", path, r.Status, r.Header, r.Body)
		}
	}
}
