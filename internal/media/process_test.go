package media_test

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/media"
	"github.com/gocommerce/shop/internal/media/mediatest"
	"github.com/gocommerce/shop/internal/media/storage"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

type fixture struct {
	app     *testkit.App
	product *models.Product
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	app := testkit.MustApp(t) // no worker: the tests run Process themselves
	return &fixture{app: app, product: testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{})}
}

func (f *fixture) upload(t *testing.T, data []byte) uuid.UUID {
	t.Helper()
	img, err := f.app.Media.Upload(context.Background(), f.product.ID, media.UploadInput{Data: data})
	if err != nil {
		t.Fatal(err)
	}
	return img.ID
}

func (f *fixture) row(t *testing.T, id uuid.UUID) models.ProductImage {
	t.Helper()
	var r models.ProductImage
	if err := f.app.DB.Where("id = ?", id).Take(&r).Error; err != nil {
		t.Fatal(err)
	}
	return r
}

func (f *fixture) files(t *testing.T) []string {
	t.Helper()
	var out []string
	root := f.app.Config.Media.Dir
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// The worker re-checks the header: a bomb that reached the store (the API
// is not the only writer) fails from its header, allocating little.
func TestProcessRefusesABombFromItsHeader(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	id, key := uuid.New(), "uploads/"+uuid.NewString()
	if err := f.app.Media.Store().Put(ctx, storage.Object{Key: key, Data: mediatest.BombPNG(100_000)}); err != nil {
		t.Fatal(err)
	}
	if err := f.app.DB.Exec(`INSERT INTO product_images (id, product_id, position, status, format, byte_size, width, height, source_key)
		VALUES (?, ?, 0, 'processing', 'png', 1, 1, 1, ?)`, id, f.product.ID, key).Error; err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := f.app.Media.Process(ctx, id); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 4<<20 {
		t.Fatalf("processing the bomb allocated %d bytes, want at most 4 MiB", n)
	}
	r := f.row(t, id)
	if r.Status != models.ImageFailed || r.FailureReason == nil || !strings.Contains(*r.FailureReason, "pixels") || r.SourceKey != nil {
		t.Fatalf("row %+v", r)
	}
	if _, err := f.app.Media.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if files := f.files(t); len(files) != 0 {
		t.Fatalf("files left: %v", files)
	}
}

// Running the task twice, or again after the worker died between writing
// the renditions and recording them, ends in the same state with no
// stray file.
func TestProcessIsIdempotentAcrossACrash(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	id := f.upload(t, mediatest.PhoneJPEG(900, 600, 8))
	died := errors.New("worker died")
	f.app.Media.SetAfterRender(func() error { return died })
	if err := f.app.Media.Process(ctx, id); !errors.Is(err, died) {
		t.Fatalf("first run: %v", err)
	}
	if r := f.row(t, id); r.Status != models.ImageProcessing || r.SourceKey == nil {
		t.Fatalf("after the crash: %+v", r)
	}
	f.app.Media.SetAfterRender(nil)
	for run := 0; run < 2; run++ {
		if err := f.app.Media.Process(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	r := f.row(t, id)
	if r.Status != models.ImageReady || r.Width != 600 || r.Height != 900 || r.SourceKey != nil {
		t.Fatalf("row %+v", r)
	}
	if _, err := f.app.Media.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	// 900 px fits 1200: the large rendition is the full image's file.
	want := []string{*r.FullKey, *r.LargeKey, *r.MediumKey, *r.ThumbKey}
	slices.Sort(want)
	want = slices.Compact(want)
	if got := f.files(t); !slices.Equal(got, want) {
		t.Fatalf("files %v, want exactly the renditions %v", got, want)
	}
}

// An image deleted while the worker renders it leaves no file behind.
func TestImageDeletedDuringRenderingLeavesNoFiles(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	id := f.upload(t, mediatest.JPEG(700, 500))
	f.app.Media.SetAfterRender(func() error { return f.app.Media.Delete(ctx, f.product.ID, id) })
	if err := f.app.Media.Process(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := f.app.Media.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if files := f.files(t); len(files) != 0 {
		t.Fatalf("files left: %v", files)
	}
}

// An image becoming ready shows at once on a storefront page that was
// cached without it: the worker invalidates the catalog cache.
func TestReadyImageInvalidatesTheCachedPage(t *testing.T) {
	f := newFixture(t)
	page := func() int {
		var p struct {
			Images []struct{ ID string } `json:"images"`
		}
		f.app.Do(t, http.MethodGet, "/products/"+f.product.ID.String(), testkit.Req{}).Expect(t, http.StatusOK).JSON(t, &p)
		return len(p.Images)
	}
	id := f.upload(t, mediatest.JPEG(300, 200))
	if n := page(); n != 0 {
		t.Fatalf("%d images before processing", n)
	}
	page() // served from the cache now
	if err := f.app.Media.Process(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	if n := page(); n != 1 {
		t.Fatalf("%d images after processing, want 1", n)
	}
}
