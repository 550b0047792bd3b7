package mediaapi_test

import (
	"bytes"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/media/mediatest"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// store is the media store as a test sees it, in the store itself.
type store struct {
	// keyOf turns a file's public URL into its key.
	keyOf func(url string) string
	// read returns a stored object, and whether it exists.
	read func(t *testing.T, key string) ([]byte, bool)
	// keys lists every object.
	keys func(t *testing.T) []string
}

// journey is the life of a product's images on any storage: upload, the
// worker's renditions, the storefront in order, reorder, delete, product
// delete; each change checked in the API, the storefront and the store.
func journey(t *testing.T, e *env, st store) {
	p := e.product(t)
	v1 := p.Variants[0].ID.String()
	uploads := []form{
		{file: mediatest.PhoneJPEG(1600, 1200, 6), fields: [][2]string{{"alt", " Front "}, {"variantIds", v1}}},
		{file: mediatest.PNG(300, 200, true), name: "../../etc/passwd.png"},
		{file: mediatest.WebP, name: "x.svg"},
	}
	var ids []string
	for i, f := range uploads {
		img := e.upload(t, p.ID, f, false).Expect(t, http.StatusCreated).Map(t)
		if img["status"] != models.ImageProcessing || img["position"] != float64(i) || img["url"] != nil {
			t.Fatalf("upload %d answered %v", i, img)
		}
		if r := img["renditions"].(map[string]any); r["thumb"] != nil || r["medium"] != nil || r["large"] != nil {
			t.Fatalf("renditions before processing: %v", r)
		}
		ids = append(ids, str(img["id"]))
	}
	imgs := e.settled(t, p.ID)
	for _, im := range imgs {
		if im["status"] != models.ImageReady {
			t.Fatalf("image not ready: %v", im)
		}
	}
	if front := imgs[0]; front["alt"] != "Front" || front["width"] != float64(1200) || front["height"] != float64(1600) ||
		len(front["variantIds"].([]any)) != 1 || front["variantIds"].([]any)[0] != v1 {
		t.Fatalf("front image: %v (want upright 1200×1600, alt trimmed, its variant)", front)
	}
	// The renditions: sizes, upright, no metadata, in the store itself.
	want := map[string]image.Point{"url": {1200, 1600}, "large": {900, 1200}, "medium": {450, 600}, "thumb": {150, 200}}
	for name, dims := range want {
		u := str(imgs[0]["url"])
		if name != "url" {
			u = str(imgs[0]["renditions"].(map[string]any)[name])
		}
		data, ok := st.read(t, st.keyOf(u))
		if !ok {
			t.Fatalf("%s (%s) is not in the store", name, u)
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil || cfg.Width != dims.X || cfg.Height != dims.Y {
			t.Errorf("%s is %d×%d (%v), want %v", name, cfg.Width, cfg.Height, err, dims)
		}
	}
	testkit.Eventually(t, 30*time.Second, "uploads deleted once processed", func() bool {
		return !slices.ContainsFunc(st.keys(t), func(k string) bool { return strings.HasPrefix(k, "uploads/") })
	})
	for _, k := range st.keys(t) {
		if !strings.HasPrefix(k, "products/") && !strings.HasPrefix(k, "uploads/") {
			continue // not the service's (the S3 server's readiness probe)
		}
		data, _ := st.read(t, k)
		if found := mediatest.Metadata(data); len(found) > 0 {
			t.Errorf("stored file %s keeps %v", k, found)
		}
	}

	// The storefront, in order, and the list's first image; then a reorder
	// shows at once although both were cached.
	storefront(t, e, p.ID.String(), ids)
	e.do(t, http.MethodPatch, "/products/"+p.ID.String()+"/images/"+ids[2], map[string]any{"position": 0}).Expect(t, http.StatusOK)
	storefront(t, e, p.ID.String(), []string{ids[2], ids[0], ids[1]})
	got := e.do(t, http.MethodPatch, "/products/"+p.ID.String()+"/images/"+ids[0],
		map[string]any{"alt": "Side", "variantIds": []string{}}).Expect(t, http.StatusOK).Map(t)
	if got["alt"] != "Side" || len(got["variantIds"].([]any)) != 0 || got["position"] != float64(1) {
		t.Fatalf("patched image: %v", got)
	}

	// Delete: gone from the API, the storefront and, after commit, the store.
	second := e.images(t, p.ID)[2]
	e.do(t, http.MethodDelete, "/products/"+p.ID.String()+"/images/"+ids[1], nil).Expect(t, http.StatusNoContent)
	storefront(t, e, p.ID.String(), []string{ids[2], ids[0]})
	gone := []string{st.keyOf(str(second["url"]))}
	for _, u := range second["renditions"].(map[string]any) {
		gone = append(gone, st.keyOf(str(u)))
	}
	testkit.Eventually(t, 30*time.Second, "the deleted image's files gone from the store", func() bool {
		for _, k := range gone {
			if _, ok := st.read(t, k); ok {
				return false
			}
		}
		return true
	})
	for i, im := range e.images(t, p.ID) {
		if im["position"] != float64(i) {
			t.Fatalf("positions after delete: %v", e.images(t, p.ID))
		}
	}

	// Deleting the product deletes the rest the same way.
	e.do(t, http.MethodDelete, "/products/"+p.ID.String(), nil).Expect(t, http.StatusNoContent)
	testkit.Eventually(t, 30*time.Second, "the product's files gone from the store", func() bool {
		return !slices.ContainsFunc(st.keys(t), func(k string) bool { return strings.Contains(k, p.ID.String()) })
	})
	testkit.Eventually(t, 10*time.Second, "the deletion outbox emptied", func() bool {
		var left int64
		e.app.DB.Raw(`SELECT count(*) FROM media_deletions`).Scan(&left)
		return left == 0
	})
}

// storefront checks the product page's images and the list's image.
func storefront(t *testing.T, e *env, productID string, want []string) {
	t.Helper()
	var page struct {
		Images []struct {
			ID         string            `json:"id"`
			URL        string            `json:"url"`
			Renditions map[string]string `json:"renditions"`
		} `json:"images"`
	}
	e.app.Do(t, http.MethodGet, "/products/"+productID, testkit.Req{}).Expect(t, http.StatusOK).JSON(t, &page)
	var got []string
	for _, im := range page.Images {
		got = append(got, im.ID)
		if im.URL == "" || im.Renditions["thumb"] == "" || im.Renditions["medium"] == "" || im.Renditions["large"] == "" {
			t.Fatalf("storefront image without its files: %+v", im)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("storefront images %v, want %v", got, want)
	}
	var list struct {
		Data []struct {
			ID    string `json:"id"`
			Image *struct {
				ID string `json:"id"`
			} `json:"image"`
		} `json:"data"`
	}
	e.app.Do(t, http.MethodGet, "/products", testkit.Req{}).Expect(t, http.StatusOK).JSON(t, &list)
	for _, p := range list.Data {
		if p.ID == productID {
			if p.Image == nil || p.Image.ID != want[0] {
				t.Fatalf("list image %+v, want %s", p.Image, want[0])
			}
			return
		}
	}
	t.Fatalf("product %s not in the storefront list", productID)
}

func TestImagesJourneyOnLocalStorage(t *testing.T) {
	e := newEnv(t)
	journey(t, e, store{
		keyOf: func(url string) string { _, k, _ := strings.Cut(url, "/media/"); return k },
		read: func(t *testing.T, key string) ([]byte, bool) {
			if !slices.Contains(e.files(t), key) {
				return nil, false
			}
			return e.readFile(t, key), true
		},
		keys: func(t *testing.T) []string { return e.files(t) },
	})
}

// The console's thumbnails: one call for a page of products, the first
// ready image of each product that has one.
func TestProductThumbnails(t *testing.T) {
	e := newEnv(t)
	with, without := e.product(t), e.product(t)
	e.upload(t, with.ID, form{file: mediatest.JPEG(300, 300), fields: [][2]string{{"alt", "Front"}}}, false).Expect(t, http.StatusCreated)
	e.settled(t, with.ID)
	var out struct {
		Data []map[string]any `json:"data"`
	}
	e.do(t, http.MethodGet, "/product-thumbnails?productIds="+with.ID.String()+","+without.ID.String()+","+with.ID.String(), nil).
		Expect(t, http.StatusOK).JSON(t, &out)
	if len(out.Data) != 1 || out.Data[0]["productId"] != with.ID.String() || out.Data[0]["alt"] != "Front" || !strings.Contains(str(out.Data[0]["thumb"]), "/media/products/") {
		t.Fatalf("thumbnails %v", out.Data)
	}
	e.app.Do(t, http.MethodGet, admin+"/product-thumbnails?productIds=nope", testkit.Req{Token: e.tok}).ExpectField(t, "productIds")
	e.app.Do(t, http.MethodGet, admin+"/product-thumbnails", testkit.Req{Token: e.tok, Invalid: true}).ExpectField(t, "productIds")
}
