package mediaapi_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

const admin = "/api/v1/admin"

// env is an app with its worker and an admin token, limits lifted.
type env struct {
	app *testkit.App
	tok string
}

func newEnv(t *testing.T, opts ...testkit.Option) *env {
	t.Helper()
	opts = append([]testkit.Option{testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
		c.AdminGeneralRateLimit = 100000
	})}, opts...)
	app := testkit.MustApp(t, opts...)
	_, tok := testkit.MustAdmin(t, app, "admin")
	return &env{app: app, tok: tok}
}

// product is an active product with two variants.
func (e *env) product(t *testing.T) *models.Product {
	t.Helper()
	return testkit.MustStoreProduct(t, e.app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 5}, {Inventory: 5}}})
}

// form is a multipart upload: a file part and text fields.
type form struct {
	file   []byte
	name   string
	fields [][2]string
	noFile bool
}

func (f form) encode(t *testing.T) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, kv := range f.fields {
		w.WriteField(kv[0], kv[1])
	}
	if !f.noFile {
		name := f.name
		if name == "" {
			name = "photo.jpg"
		}
		part, err := w.CreateFormFile("file", name)
		if err != nil {
			t.Fatal(err)
		}
		part.Write(f.file)
	}
	w.Close()
	return buf.Bytes(), w.FormDataContentType()
}

// upload posts f to the product's images; invalid marks a request that
// breaks the document on purpose.
func (e *env) upload(t *testing.T, productID fmt.Stringer, f form, invalid bool) *testkit.Response {
	t.Helper()
	body, ct := f.encode(t)
	return e.app.Do(t, http.MethodPost, admin+"/products/"+productID.String()+"/images", testkit.Req{
		Token: e.tok, Body: body, Headers: map[string]string{"Content-Type": ct}, Invalid: invalid})
}

func (e *env) do(t *testing.T, method, path string, body any) *testkit.Response {
	t.Helper()
	return e.app.Do(t, method, admin+path, testkit.Req{Token: e.tok, Body: body})
}

// images lists the product's images through the admin API.
func (e *env) images(t *testing.T, productID fmt.Stringer) []map[string]any {
	t.Helper()
	var out struct {
		Data []map[string]any `json:"data"`
	}
	e.do(t, http.MethodGet, "/products/"+productID.String()+"/images", nil).Expect(t, http.StatusOK).JSON(t, &out)
	return out.Data
}

// settled waits until no image of the product is processing and returns them.
func (e *env) settled(t *testing.T, productID fmt.Stringer) []map[string]any {
	t.Helper()
	var imgs []map[string]any
	testkit.Eventually(t, 60*time.Second, "images processed", func() bool {
		imgs = e.images(t, productID)
		for _, im := range imgs {
			if im["status"] == models.ImageProcessing {
				return false
			}
		}
		return true
	})
	return imgs
}

// files lists the files under the app's local media directory, relative.
func (e *env) files(t *testing.T) []string {
	t.Helper()
	var out []string
	root := e.app.Config.Media.Dir
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

func (e *env) readFile(t *testing.T, key string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(e.app.Config.Media.Dir, filepath.FromSlash(key)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// get fetches an absolute URL (a rendition) without the contract check
// of the API routes (the S3 bucket's URLs are not the API's).
func get(t *testing.T, url string, headers map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func str(v any) string { s, _ := v.(string); return s }
