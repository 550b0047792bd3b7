package imaging

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"

	"github.com/disintegration/imaging"
)

// Size is a rendition: its name and the longest side it is fitted into (0:
// the image's own size). Renditions are never upscaled.
type Size struct {
	Name    string
	Longest int
}

// Sizes are the renditions Render makes, largest first (docs/DECISIONS.md
// "Product media"): the upright full-size image and the three the storefront
// picks from.
var Sizes = []Size{{"full", 0}, {"large", 1200}, {"medium", 600}, {"thumb", 200}}

// jpegQuality balances size and artefacts for product photographs.
const jpegQuality = 85

// Rendition is one encoded output: only pixels, no metadata of any kind.
type Rendition struct {
	Name          string
	Width, Height int
	// Ext is "jpg" or "png"; ContentType its media type.
	Ext, ContentType string
	Data             []byte
}

// Render decodes data, whose header must pass Inspect with maxPixels again
// (the worker trusts nothing the API checked), applies the EXIF
// orientation, and encodes every size of Sizes: JPEG for opaque images, PNG
// for those with transparency. Errors: those of Inspect, and ErrUnreadable
// for pixels that do not decode.
func Render(data []byte, maxPixels int64) (Header, []Rendition, error) {
	h, err := Inspect(data, maxPixels)
	if err != nil {
		return h, nil, err
	}
	img, err := decode(h.Format, data)
	if err != nil {
		return h, nil, fmt.Errorf("%w: %v", ErrUnreadable, err)
	}
	img = orient(img, h.Orientation)
	opaque := isOpaque(img)
	out := make([]Rendition, 0, len(Sizes))
	for _, s := range Sizes {
		w, ht := fit(img.Bounds().Dx(), img.Bounds().Dy(), s.Longest)
		if len(out) > 0 && w == out[len(out)-1].Width && ht == out[len(out)-1].Height {
			// The same pixels as the larger size: the same file.
			r := out[len(out)-1]
			r.Name = s.Name
			out = append(out, r)
			continue
		}
		if w != img.Bounds().Dx() || ht != img.Bounds().Dy() {
			// Each size from the one before: a smaller source is faster and
			// a factor of at most 2 to 6 keeps Lanczos sharp.
			img = imaging.Resize(img, w, ht, imaging.Lanczos)
		}
		r, err := encode(img, opaque)
		if err != nil {
			return h, nil, err
		}
		r.Name, r.Width, r.Height = s.Name, w, ht
		out = append(out, r)
	}
	return h, out, nil
}

// fit returns w×h scaled down to fit longest (0: unchanged), never up.
func fit(w, h, longest int) (int, int) {
	if longest <= 0 || (w <= longest && h <= longest) {
		return w, h
	}
	if w >= h {
		return longest, max(1, (h*longest+w/2)/w)
	}
	return max(1, (w*longest+h/2)/h), longest
}

func encode(img image.Image, opaque bool) (Rendition, error) {
	var buf bytes.Buffer
	if opaque {
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: jpegQuality}); err != nil {
			return Rendition{}, fmt.Errorf("imaging: encode jpeg: %w", err)
		}
		return Rendition{Ext: "jpg", ContentType: "image/jpeg", Data: buf.Bytes()}, nil
	}
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&buf, img); err != nil {
		return Rendition{}, fmt.Errorf("imaging: encode png: %w", err)
	}
	return Rendition{Ext: "png", ContentType: "image/png", Data: buf.Bytes()}, nil
}

// isOpaque reports whether every pixel of img is fully opaque.
func isOpaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}
