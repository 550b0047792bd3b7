package console_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/media/mediatest"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// A merchant gives a product images in the console: picker and drag and
// drop (with progress), processing followed to ready, alt text and a
// variant saved, a reorder, a delete confirmed; the product list and an
// order's lines show the thumbnails. No page breaks the CSP.
func TestConsoleProductImages(t *testing.T) {
	bin := testkit.Chromium()
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed; CI must run the console's browser tests")
		}
		t.Skip("chromium not installed (run `make chromium`); skipping the console media test")
	}
	// Image URLs are absolute (PUBLIC_URL/media/...): the browser reaches
	// the app through a front whose address PUBLIC_URL names, as in production.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	front := "http://" + ln.Addr().String()
	app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
		c.AdminGeneralRateLimit = 100000
		c.PublicURL = front
	}))
	target, _ := url.Parse(app.URL)
	srv := &http.Server{Handler: httputil.NewSingleHostReverseProxy(target)}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	merchant, _ := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "Linen Shirt", Price: 49950, Variants: []testkit.StoreVariant{{Inventory: 3}, {Inventory: 3}}})
	b := newBrowser(t, bin, front)
	b.open("/admin/products/"+p.ID.String(), app.Config.AppName+" admin")
	signIn(b, merchant.Email)
	b.waitHeading("Linen Shirt")
	b.waitText("No images yet.")

	// The picker: two files at once.
	dir := t.TempDir()
	files := []string{filepath.Join(dir, "front.jpg"), filepath.Join(dir, "back.png")}
	os.WriteFile(files[0], mediatest.PhoneJPEG(1200, 900, 6), 0o644)
	os.WriteFile(files[1], mediatest.PNG(400, 300, true), 0o644)
	b.do("choose two files", chromedp.SetUploadFiles(chromedp.CSS(`.dropzone input[type=file]`), files))
	b.waitUntil("two ready images with thumbnails", `(() => {
		const imgs = [...document.querySelectorAll('.media-item.media-ready img')];
		return imgs.length === 2 && imgs.every((i) => i.complete && i.naturalWidth > 0);
	})()`)

	// Drag and drop a third, drawn in the page.
	b.waitUntil("a file dropped", `(() => { (async () => {
		const c = document.createElement('canvas'); c.width = 300; c.height = 200;
		const g = c.getContext('2d'); g.fillStyle = '#2a7'; g.fillRect(0, 0, 300, 200);
		const blob = await new Promise((r) => c.toBlob(r, 'image/png'));
		const dt = new DataTransfer();
		dt.items.add(new File([blob], 'dropped.png', { type: 'image/png' }));
		document.querySelector('.dropzone').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
	})(); return true; })()`)
	b.waitUntil("three ready images", `document.querySelectorAll('.media-item.media-ready img').length === 3`)
	b.accessible()

	// Alt text and a variant on the first image.
	b.waitUntil("alt text typed", `(() => {
		const first = document.querySelector('.media-item');
		const alt = first.querySelector('input[type=text]');
		alt.value = 'Front view';
		first.querySelector('input[type=checkbox]').checked = true;
		[...first.querySelectorAll('button')].find((x) => x.textContent === 'Save').click();
		return true;
	})()`)
	b.waitText("Image saved.")
	var alt string
	var variants int64
	app.DB.Raw(`SELECT alt FROM product_images WHERE product_id = ? AND position = 0`, p.ID).Scan(&alt)
	app.DB.Raw(`SELECT count(*) FROM product_image_variants v JOIN product_images i ON i.id = v.image_id WHERE i.product_id = ?`, p.ID).Scan(&variants)
	if alt != "Front view" || variants != 1 {
		t.Fatalf("alt %q, %d variants after saving", alt, variants)
	}

	// The third moves up twice, to the top; then it is deleted after
	// confirming. The list is checked against the database after each step.
	order := func() []string {
		var ids []string
		app.DB.Raw(`SELECT id::text FROM product_images WHERE product_id = ? ORDER BY position`, p.ID).Scan(&ids)
		return ids
	}
	shown := func(ids []string) {
		b.waitUntil("the images in order "+strings.Join(ids, ","), fmt.Sprintf(
			`JSON.stringify([...document.querySelectorAll('.media-item')].map((li) => li.dataset.id)) === %s`, js(mustJSON(ids))))
	}
	before := order()
	shown(before)
	b.press("", "Move image 3 up")
	shown([]string{before[0], before[2], before[1]})
	b.press("", "Move image 2 up")
	shown([]string{before[2], before[0], before[1]})
	if got := order(); !slices.Equal(got, []string{before[2], before[0], before[1]}) {
		t.Fatalf("order in the database %v", got)
	}
	b.waitUntil("delete pressed", `(() => { [...document.querySelector('.media-item').querySelectorAll('button')].find((x) => x.textContent === 'Delete').click(); return true; })()`)
	b.press("", "Delete")
	shown([]string{before[0], before[1]})

	// The product list shows its thumbnail.
	b.open("/admin/products", "Products")
	b.waitUntil("a thumbnail in the list", `(() => { const i = document.querySelector('.thumb-slot img'); return !!i && i.complete && i.naturalWidth > 0; })()`)

	// And an order's lines.
	var product models.Product
	if err := app.DB.Preload("Variants", func(db *gorm.DB) *gorm.DB { return db.Order("created_at, id") }).Take(&product, "id = ?", p.ID).Error; err != nil {
		t.Fatal(err)
	}
	o := placeOrder(t, app, &product)
	b.open("/admin/orders/"+o.ID.String(), "Order "+o.OrderNumber)
	b.waitUntil("thumbnails on the order's lines", `(() => { const i = [...document.querySelectorAll('main tbody .thumb-slot img')];
		return i.length === 2 && i.every((x) => x.complete && x.naturalWidth > 0); })()`)

	// Lines whose variants are gone (deleted after the order, variant_id
	// is null) get no product thumbnail from the variants lookup: it is
	// asked for by product.
	if err := app.DB.Exec(`UPDATE order_items SET variant_id = NULL WHERE order_id = ?`, o.ID).Error; err != nil {
		t.Fatal(err)
	}
	b.open("/admin/orders/"+o.ID.String(), "Order "+o.OrderNumber)
	b.waitUntil("thumbnails on the order's lines, by product", `(() => { const i = [...document.querySelectorAll('main tbody .thumb-slot img')];
		return i.length === 2 && i.every((x) => x.complete && x.naturalWidth > 0)
			&& performance.getEntriesByType('resource').some((e) => e.name.includes('/api/v1/admin/product-thumbnails')); })()`)
	b.check()
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// With images in a bucket (or behind a CDN), the console's policy admits
// that origin for images and nothing else from it.
func TestConsolePolicyAdmitsTheMediaOrigin(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) {
		c.Media.Storage = "s3"
		c.Media.S3 = config.S3{Endpoint: "https://s3.ap-south-1.amazonaws.com", Bucket: "shop-media", Region: "ap-south-1",
			AccessKeyID: "k", SecretAccessKey: "s"}
	}))
	csp := consoleGet(t, app.URL+"/admin/", nil).Expect(t, 200).Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "img-src 'self' data: https://shop-media.s3.ap-south-1.amazonaws.com;") ||
		strings.Count(csp, "amazonaws") != 1 {
		t.Fatalf("Content-Security-Policy %q", csp)
	}
}
