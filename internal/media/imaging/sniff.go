// Package imaging reads untrusted image files and writes clean renditions of
// them: the format is taken from the content alone, the size from the header
// before any pixel is decoded, the EXIF orientation is applied and nothing
// but pixels is written back (docs/DECISIONS.md "Product media").
package imaging

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"

	"golang.org/x/image/webp"
)

// Format is an accepted image format, named by content.
type Format string

// The accepted formats. GIF is read for its first frame only.
const (
	JPEG Format = "jpeg"
	PNG  Format = "png"
	WebP Format = "webp"
	GIF  Format = "gif"
)

// Errors of Inspect and Decode.
var (
	// ErrUnsupported is content that is none of the accepted formats (SVG,
	// HTML, PDF, HEIC, a renamed file ...).
	ErrUnsupported = errors.New("imaging: not a JPEG, PNG, WebP or GIF image")
	// ErrTooManyPixels is a header announcing more than the allowed pixels.
	ErrTooManyPixels = errors.New("imaging: too many pixels")
	// ErrUnreadable is a file of an accepted format whose header or pixels
	// do not decode (truncated or corrupt).
	ErrUnreadable = errors.New("imaging: the image does not decode")
)

// Sniff names the format of content from its first bytes (magic numbers
// only; a name or a declared type is never consulted).
func Sniff(head []byte) (Format, bool) {
	switch {
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}):
		return JPEG, true
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return PNG, true
	case len(head) >= 12 && bytes.Equal(head[:4], []byte("RIFF")) && bytes.Equal(head[8:12], []byte("WEBP")):
		return WebP, true
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return GIF, true
	}
	return "", false
}

// Header is what an image file says about itself before decoding.
type Header struct {
	Format Format
	// Width and Height are as stored, before orientation.
	Width, Height int
	// Orientation is the EXIF orientation (1 to 8; 1 when absent).
	Orientation int
}

// Pixels is the pixel count the header announces.
func (h Header) Pixels() int64 { return int64(h.Width) * int64(h.Height) }

// Inspect reads the header of data: its format by content, its dimensions
// and EXIF orientation, without decoding pixels (a decompression bomb costs
// only its header). Errors: ErrUnsupported, ErrUnreadable, and
// ErrTooManyPixels when the image has more than maxPixels.
func Inspect(data []byte, maxPixels int64) (Header, error) {
	f, ok := Sniff(data)
	if !ok {
		return Header{}, ErrUnsupported
	}
	cfg, err := decodeConfig(f, bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return Header{}, fmt.Errorf("%w: header: %v", ErrUnreadable, err)
	}
	h := Header{Format: f, Width: cfg.Width, Height: cfg.Height, Orientation: 1}
	if h.Pixels() > maxPixels {
		return h, ErrTooManyPixels
	}
	if f == JPEG {
		h.Orientation = jpegOrientation(data)
	}
	return h, nil
}

func decodeConfig(f Format, r io.Reader) (image.Config, error) {
	switch f {
	case JPEG:
		return jpeg.DecodeConfig(r)
	case PNG:
		return png.DecodeConfig(r)
	case WebP:
		return webp.DecodeConfig(r)
	case GIF:
		return gif.DecodeConfig(r)
	}
	return image.Config{}, ErrUnsupported
}

// decode decodes data of format f (the first frame of a GIF).
func decode(f Format, data []byte) (image.Image, error) {
	r := bytes.NewReader(data)
	switch f {
	case JPEG:
		return jpeg.Decode(r)
	case PNG:
		return png.Decode(r)
	case WebP:
		return webp.Decode(r)
	case GIF:
		return gif.Decode(r)
	}
	return nil, ErrUnsupported
}
