package imaging_test

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"image/png"
	"runtime"
	"testing"

	"github.com/gocommerce/shop/internal/media/imaging"
	"github.com/gocommerce/shop/internal/media/mediatest"
)

const maxPixels = 40_000_000

func TestSniffNamesFormatsByContentOnly(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		want imaging.Format
		ok   bool
	}{
		{"jpeg", mediatest.JPEG(8, 8), imaging.JPEG, true},
		{"png", mediatest.PNG(8, 8, false), imaging.PNG, true},
		{"webp", mediatest.WebP, imaging.WebP, true},
		{"gif", mediatest.GIF(8, 8), imaging.GIF, true},
		{"svg", mediatest.SVG, "", false},
		{"html", []byte("<html><img src=x></html>"), "", false},
		{"empty", nil, "", false},
		{"riff but not webp", []byte("RIFF\x00\x00\x00\x00WAVEfmt "), "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := imaging.Sniff(c.data)
			if got != c.want || ok != c.ok {
				t.Fatalf("Sniff = %q, %v; want %q, %v", got, ok, c.want, c.ok)
			}
		})
	}
}

func TestInspectRefusesBombsFromTheHeaderAlone(t *testing.T) {
	for name, bomb := range map[string][]byte{"png 100k×100k": mediatest.BombPNG(100_000), "jpeg 65500²": mediatest.BombJPEG()} {
		t.Run(name, func(t *testing.T) {
			allocated := allocatedBy(func() {
				for _, call := range []func() error{
					func() error { _, err := imaging.Inspect(bomb, maxPixels); return err },
					func() error { _, _, err := imaging.Render(bomb, maxPixels); return err },
				} {
					if err := call(); !errors.Is(err, imaging.ErrTooManyPixels) {
						t.Fatalf("err %v, want ErrTooManyPixels", err)
					}
				}
			})
			if allocated > 4<<20 {
				t.Fatalf("refusing the bomb allocated %d bytes, want at most 4 MiB", allocated)
			}
		})
	}
}

// allocatedBy returns the bytes the runtime allocated while f ran.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestRenderAppliesOrientationAndStripsMetadata(t *testing.T) {
	src := mediatest.PhoneJPEG(400, 300, 6) // stored landscape, shown portrait
	if found := mediatest.Metadata(src); len(found) == 0 {
		t.Fatal("the fixture carries no metadata; the test would prove nothing")
	}
	h, out, err := imaging.Render(src, maxPixels)
	if err != nil {
		t.Fatal(err)
	}
	if h.Orientation != 6 || h.Width != 400 || h.Height != 300 {
		t.Fatalf("header %+v, want 400×300 orientation 6", h)
	}
	want := map[string][2]int{"full": {300, 400}, "large": {300, 400}, "medium": {300, 400}, "thumb": {150, 200}}
	if len(out) != len(want) {
		t.Fatalf("%d renditions, want %d", len(out), len(want))
	}
	for _, r := range out {
		if dims := want[r.Name]; r.Width != dims[0] || r.Height != dims[1] {
			t.Errorf("%s is %d×%d, want %d×%d", r.Name, r.Width, r.Height, dims[0], dims[1])
		}
		if found := mediatest.Metadata(r.Data); len(found) > 0 {
			t.Errorf("%s keeps metadata: %v", r.Name, found)
		}
		img, err := jpeg.Decode(bytes.NewReader(r.Data))
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		if img.Bounds().Dx() != r.Width || img.Bounds().Dy() != r.Height {
			t.Errorf("%s decodes as %v", r.Name, img.Bounds())
		}
		// Orientation 6 turns the picture a quarter turn clockwise: the
		// stored top-left red quarter shows at the top right.
		if !isRed(img, img.Bounds().Dx()*3/4, img.Bounds().Dy()/4) || isRed(img, img.Bounds().Dx()/4, img.Bounds().Dy()/4) {
			t.Errorf("%s is not shown upright: red quarter not at the top right", r.Name)
		}
	}
}

func isRed(img image.Image, x, y int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	return r>>8 > 180 && g>>8 < 80 && b>>8 < 80
}

func TestRenderEveryOrientation(t *testing.T) {
	// Where the stored top-left red quarter shows, per orientation:
	// (right half?, bottom half?).
	corners := map[int][2]bool{1: {false, false}, 2: {true, false}, 3: {true, true}, 4: {false, true},
		5: {false, false}, 6: {true, false}, 7: {true, true}, 8: {false, true}}
	for o := 1; o <= 8; o++ {
		_, out, err := imaging.Render(mediatest.PhoneJPEG(64, 48, o), maxPixels)
		if err != nil {
			t.Fatal(err)
		}
		img, _ := jpeg.Decode(bytes.NewReader(out[0].Data))
		w, h := img.Bounds().Dx(), img.Bounds().Dy()
		if (o >= 5) != (w == 48 && h == 64) {
			t.Errorf("orientation %d: %d×%d", o, w, h)
		}
		c := corners[o]
		x, y := w/4, h/4
		if c[0] {
			x = w * 3 / 4
		}
		if c[1] {
			y = h * 3 / 4
		}
		if !isRed(img, x, y) {
			t.Errorf("orientation %d: red quarter not where expected", o)
		}
	}
}

func TestRenderNeverUpscalesAndKeepsTransparency(t *testing.T) {
	_, out, err := imaging.Render(mediatest.PNG(150, 100, true), maxPixels)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range out {
		if r.Width != 150 || r.Height != 100 || r.Ext != "png" {
			t.Errorf("%s: %d×%d %s, want 150×100 png", r.Name, r.Width, r.Height, r.Ext)
		}
		if found := mediatest.Metadata(r.Data); len(found) > 0 {
			t.Errorf("%s keeps metadata: %v", r.Name, found)
		}
		img, err := png.Decode(bytes.NewReader(r.Data))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, _, a := img.At(140, 50).RGBA(); a != 0 {
			t.Errorf("%s: transparent half became opaque", r.Name)
		}
	}
}

func TestRenderLargeSizes(t *testing.T) {
	_, out, err := imaging.Render(mediatest.JPEG(3000, 2000), maxPixels)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{"full": {3000, 2000}, "large": {1200, 800}, "medium": {600, 400}, "thumb": {200, 133}}
	for _, r := range out {
		if dims := want[r.Name]; r.Width != dims[0] || r.Height != dims[1] || r.Ext != "jpg" {
			t.Errorf("%s is %d×%d %s, want %v jpg", r.Name, r.Width, r.Height, r.Ext, dims)
		}
	}
}

func TestRenderOtherFormats(t *testing.T) {
	cases := map[string][]byte{"webp": mediatest.WebP, "gif first frame": mediatest.GIF(40, 30), "polyglot": mediatest.Polyglot()}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			_, out, err := imaging.Render(data, maxPixels)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range out {
				if found := mediatest.Metadata(r.Data); len(found) > 0 {
					t.Errorf("%s: %v", r.Name, found)
				}
				if bytes.Contains(r.Data, []byte("<script")) || bytes.Contains(r.Data, []byte("<html")) {
					t.Errorf("%s carries the HTML of the upload", r.Name)
				}
			}
			if name == "gif first frame" {
				img, _, err := image.Decode(bytes.NewReader(out[0].Data))
				if err != nil || !isRed(img, 20, 15) {
					t.Errorf("the first (red) frame was not the one rendered (err %v)", err)
				}
			}
		})
	}
}

func TestRenderRefusesWhatDoesNotDecode(t *testing.T) {
	cases := map[string]struct {
		data []byte
		want error
	}{
		"truncated jpeg":      {mediatest.Truncated(200, 200), imaging.ErrUnreadable},
		"svg":                 {mediatest.SVG, imaging.ErrUnsupported},
		"png header only":     {mediatest.PNG(20, 20, false)[:40], imaging.ErrUnreadable},
		"jpeg magic, garbage": {append([]byte{0xFF, 0xD8, 0xFF, 0xE0}, bytes.Repeat([]byte{7}, 64)...), imaging.ErrUnreadable},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if _, _, err := imaging.Render(c.data, maxPixels); !errors.Is(err, c.want) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
		})
	}
}
