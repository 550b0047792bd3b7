package mediaapi_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/media/mediatest"
	"github.com/gocommerce/shop/models"
)

// The catalog's admin answers (api/catalogapi) carry the products'
// pictures: the product detail (and the pricing change's answer, the same
// detail) its images as GET /admin/products/{id}/images lists them; the
// product list and the variants lookup each product's thumbnail, its first
// ready image by position as GET /admin/product-thumbnails answers it, and
// null without one. A console page showing products asks for no pictures
// of its own.
func TestCatalogAnswersCarryProductImages(t *testing.T) {
	e := newEnv(t)
	with, without := e.product(t), e.product(t)
	for _, alt := range []string{"Front", "Back"} {
		e.upload(t, with.ID, form{file: mediatest.JPEG(300, 300), fields: [][2]string{{"alt", alt}}}, false).Expect(t, http.StatusCreated)
	}
	imgs := e.settled(t, with.ID)
	if len(imgs) != 2 || imgs[1]["alt"] != "Back" || imgs[1]["status"] != models.ImageReady {
		t.Fatalf("images %v", imgs)
	}
	// The second image moves first: the thumbnail follows.
	back := str(imgs[1]["id"])
	e.do(t, http.MethodPatch, "/products/"+with.ID.String()+"/images/"+back, map[string]any{"position": 0}).Expect(t, http.StatusOK)

	var thumbs struct {
		Data []map[string]any `json:"data"`
	}
	e.do(t, http.MethodGet, "/product-thumbnails?productIds="+with.ID.String(), nil).Expect(t, http.StatusOK).JSON(t, &thumbs)
	if len(thumbs.Data) != 1 || thumbs.Data[0]["imageId"] != back || !strings.Contains(str(thumbs.Data[0]["thumb"]), "/media/products/") {
		t.Fatalf("thumbnails %v, want the image %s", thumbs.Data, back)
	}
	want := thumbs.Data[0]["thumb"]

	listed := e.images(t, with.ID)
	var detail struct {
		Images []map[string]any `json:"images"`
	}
	e.do(t, http.MethodGet, "/products/"+with.ID.String(), nil).Expect(t, http.StatusOK).JSON(t, &detail)
	if !reflect.DeepEqual(detail.Images, listed) || len(listed) != 2 || listed[0]["id"] != back {
		t.Fatalf("the product detail's images %v, the images list %v", detail.Images, listed)
	}
	detail.Images = nil
	e.do(t, http.MethodPatch, "/products/"+without.ID.String()+"/pricing", map[string]any{"price": 599}).
		Expect(t, http.StatusOK).JSON(t, &detail)
	if detail.Images == nil || len(detail.Images) != 0 {
		t.Fatalf("the pricing answer of a product without images has images %v, want []", detail.Images)
	}

	var products struct {
		Data []map[string]any `json:"data"`
	}
	e.do(t, http.MethodGet, "/products?ids="+with.ID.String()+","+without.ID.String(), nil).Expect(t, http.StatusOK).JSON(t, &products)
	got := map[string]any{}
	for _, p := range products.Data {
		th, ok := p["thumbnail"]
		if !ok {
			t.Fatalf("product %v has no thumbnail field", p)
		}
		got[str(p["id"])] = th
	}
	if len(got) != 2 || got[with.ID.String()] != want || got[without.ID.String()] != nil {
		t.Fatalf("product list thumbnails %v, want %v for %s and null for %s", got, want, with.ID, without.ID)
	}

	var variants struct {
		Data []map[string]any `json:"data"`
	}
	ids := []string{}
	for _, v := range append(with.Variants, without.Variants...) {
		ids = append(ids, v.ID.String())
	}
	e.do(t, http.MethodGet, "/variants?ids="+strings.Join(ids, ","), nil).Expect(t, http.StatusOK).JSON(t, &variants)
	if len(variants.Data) != len(ids) {
		t.Fatalf("%d variants, want %d", len(variants.Data), len(ids))
	}
	for _, v := range variants.Data {
		th, ok := v["productThumbnail"]
		wantV := want
		if v["productId"] == without.ID.String() {
			wantV = nil
		}
		if !ok || th != wantV {
			t.Fatalf("variant %v: productThumbnail %v, want %v", v["sku"], th, wantV)
		}
	}
}
