// Package mediatest makes image files for the media tests: clean ones, ones
// that carry metadata a shop must not publish (GPS, camera, comments), and
// hostile ones (a decompression bomb, a truncated file, a PNG with HTML
// after it, SVG). Tests and bench/ import it; nothing else does.
package mediatest

import (
	"bytes"
	"compress/zlib"
	_ "embed"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
)

// Secrets are the metadata values the files carry; none may appear in any
// stored file.
var Secrets = []string{"SecretCam", "ModelX9", "TOPSECRET-COMMENT", "GPSSECRET"}

// WebP is a small lossy WebP photograph (from golang.org/x/image's test data).
//
//go:embed testdata/photo.webp
var WebP []byte

// Picture draws a w×h opaque picture whose top-left quarter is red, the rest
// a blue-green gradient, so that orientation can be checked from the pixels.
func Picture(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{0, uint8(255 * x / max(1, w)), uint8(255 * y / max(1, h)), 255}
			if x < w/2 && y < h/2 {
				c = color.RGBA{230, 20, 20, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// JPEG is a w×h JPEG of Picture with no metadata.
func JPEG(w, h int) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, Picture(w, h), &jpeg.Options{Quality: 90}); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// PhoneJPEG is a JPEG as a phone writes it: stored w×h but to be shown
// turned by EXIF orientation, with the camera's make and model, a GPS
// position and a comment segment.
func PhoneJPEG(w, h, orientation int) []byte {
	return withExif(JPEG(w, h), orientation)
}

// Photo is PhoneJPEG with sensor-like noise over the picture, so that it
// compresses like a photograph (a 12-megapixel one is several MiB).
func Photo(w, h, orientation int) []byte {
	img := Picture(w, h)
	rng := rand.New(rand.NewPCG(uint64(w), uint64(h)))
	for i := range img.Pix {
		if i%4 != 3 {
			img.Pix[i] = uint8(max(0, min(255, int(img.Pix[i])+rng.IntN(61)-30)))
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 92}); err != nil {
		panic(err)
	}
	return withExif(buf.Bytes(), orientation)
}

// withExif inserts the phone's APP1 (orientation, camera, GPS) and a
// comment segment after the SOI of a plain JPEG.
func withExif(plain []byte, orientation int) []byte {
	var out bytes.Buffer
	out.Write(plain[:2]) // SOI
	app1 := append([]byte("Exif\x00\x00"), tiff(orientation)...)
	writeSegment(&out, 0xE1, app1)
	writeSegment(&out, 0xFE, []byte("TOPSECRET-COMMENT"))
	out.Write(plain[2:])
	return out.Bytes()
}

func writeSegment(buf *bytes.Buffer, marker byte, payload []byte) {
	buf.Write([]byte{0xFF, marker})
	binary.Write(buf, binary.BigEndian, uint16(len(payload)+2))
	buf.Write(payload)
}

// tiff builds a little-endian TIFF structure: IFD0 with Make, Model,
// Orientation and a GPS IFD pointer; the GPS IFD with a latitude reference
// and a processing-method string.
func tiff(orientation int) []byte {
	le := binary.LittleEndian
	strs := []string{"SecretCam\x00", "ModelX9\x00", "ASCII\x00\x00\x00GPSSECRET"}
	// Layout: header 8, IFD0 at 8 (4 entries: 2+48+4 = 54), GPS IFD at 62
	// (2 entries: 2+24+4 = 30), strings from 92.
	const ifd0, gpsIFD, strAt = 8, 62, 92
	b := make([]byte, strAt)
	copy(b, "II*\x00")
	le.PutUint32(b[4:], ifd0)
	entry := func(at int, tag, typ uint16, count, value uint32) {
		le.PutUint16(b[at:], tag)
		le.PutUint16(b[at+2:], typ)
		le.PutUint32(b[at+4:], count)
		le.PutUint32(b[at+8:], value)
	}
	off := strAt
	le.PutUint16(b[ifd0:], 4)
	entry(ifd0+2, 0x010F, 2, uint32(len(strs[0])), uint32(off))
	off += len(strs[0])
	entry(ifd0+14, 0x0110, 2, uint32(len(strs[1])), uint32(off))
	off += len(strs[1])
	entry(ifd0+26, 0x0112, 3, 1, uint32(orientation))
	entry(ifd0+38, 0x8825, 4, 1, gpsIFD)
	le.PutUint16(b[gpsIFD:], 2)
	entry(gpsIFD+2, 0x0001, 2, 2, uint32('N'))
	entry(gpsIFD+14, 0x001B, 7, uint32(len(strs[2])), uint32(off))
	for _, s := range strs {
		b = append(b, s...)
	}
	return b
}

// PNG is a w×h PNG of Picture; with alpha its right half is transparent.
// It carries a tEXt comment chunk.
func PNG(w, h int, alpha bool) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	pic := Picture(w, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := pic.RGBAAt(x, y)
			n := color.NRGBA{c.R, c.G, c.B, 255}
			if alpha && x >= w/2 {
				n.A = 0
			}
			img.SetNRGBA(x, y, n)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	raw := buf.Bytes()
	// The tEXt chunk goes right after IHDR (8 signature + 25 IHDR bytes).
	var out bytes.Buffer
	out.Write(raw[:33])
	writeChunk(&out, "tEXt", []byte("Comment\x00TOPSECRET-COMMENT"))
	out.Write(raw[33:])
	return out.Bytes()
}

func writeChunk(buf *bytes.Buffer, typ string, data []byte) {
	binary.Write(buf, binary.BigEndian, uint32(len(data)))
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	buf.WriteString(typ)
	buf.Write(data)
	binary.Write(buf, binary.BigEndian, crc.Sum32())
}

// GIF is a two-frame w×h animated GIF; the first frame is red.
func GIF(w, h int) []byte {
	pal := color.Palette{color.RGBA{230, 20, 20, 255}, color.RGBA{20, 20, 230, 255}}
	frames := []*image.Paletted{image.NewPaletted(image.Rect(0, 0, w, h), pal), image.NewPaletted(image.Rect(0, 0, w, h), pal)}
	for i := range frames[1].Pix {
		frames[1].Pix[i] = 1
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, &gif.GIF{Image: frames, Delay: []int{10, 10}}); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// BombPNG is a decompression bomb: a valid PNG header announcing side×side
// pixels, with a small IDAT of zeros (a few KiB that would inflate to
// side² × 3 bytes).
func BombPNG(side int) []byte {
	var buf bytes.Buffer
	buf.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(side))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(side))
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	writeChunk(&buf, "IHDR", ihdr)
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	writeChunk(&buf, "IDAT", z.Bytes())
	writeChunk(&buf, "IEND", nil)
	return buf.Bytes()
}

// BombJPEG is a JPEG whose frame header announces 65500×65500 pixels,
// followed by a few bytes of nothing.
func BombJPEG() []byte {
	plain := JPEG(16, 16)
	i := bytes.Index(plain, []byte{0xFF, 0xC0})
	out := append([]byte(nil), plain...)
	binary.BigEndian.PutUint16(out[i+5:], 65500) // height
	binary.BigEndian.PutUint16(out[i+7:], 65500) // width
	return out
}

// Truncated is the first half of a w×h JPEG: its header is whole, its
// pixels are not.
func Truncated(w, h int) []byte {
	b := JPEG(w, h)
	return b[:len(b)/2]
}

// Polyglot is a valid PNG followed by an HTML page with a script: a
// browser that sniffed it would run the script.
func Polyglot() []byte {
	return append(PNG(32, 32, false), []byte("<html><body><script>alert(document.cookie)</script></body></html>")...)
}

// SVG is a scalable vector image with a script, which is refused.
var SVG = []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>`)
