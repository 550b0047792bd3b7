package imaging

import (
	"image"

	"github.com/disintegration/imaging"
)

// swapsAxes reports whether orientation o turns the image a quarter turn,
// so that its displayed width is its stored height.
func swapsAxes(o int) bool { return o >= 5 && o <= 8 }

// orient returns img turned and flipped as EXIF orientation o asks, so that
// it displays upright with no orientation tag. A JPEG's YCbCr planes are
// moved as they are (no conversion to RGBA, which would take more than
// twice the memory); any other image goes through imaging's transforms.
func orient(img image.Image, o int) image.Image {
	if o <= 1 || o > 8 {
		return img
	}
	if y, ok := img.(*image.YCbCr); ok && (y.SubsampleRatio == image.YCbCrSubsampleRatio444 || y.SubsampleRatio == image.YCbCrSubsampleRatio420) {
		return orientYCbCr(y, o)
	}
	switch o {
	case 2:
		return imaging.FlipH(img)
	case 3:
		return imaging.Rotate180(img)
	case 4:
		return imaging.FlipV(img)
	case 5:
		return imaging.Transpose(img)
	case 6:
		return imaging.Rotate270(img)
	case 7:
		return imaging.Transverse(img)
	default: // 8
		return imaging.Rotate90(img)
	}
}

// orientYCbCr moves each plane of src (4:4:4 or 4:2:0, whose subsampling is
// the same along both axes and so survives a quarter turn).
func orientYCbCr(src *image.YCbCr, o int) *image.YCbCr {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if swapsAxes(o) {
		dw, dh = h, w
	}
	dst := image.NewYCbCr(image.Rect(0, 0, dw, dh), src.SubsampleRatio)
	yOff := src.YOffset(b.Min.X, b.Min.Y)
	movePlane(dst.Y, dst.YStride, src.Y[yOff:], src.YStride, w, h, o)
	cw, ch := w, h
	if src.SubsampleRatio == image.YCbCrSubsampleRatio420 {
		cw, ch = (b.Max.X+1)/2-b.Min.X/2, (b.Max.Y+1)/2-b.Min.Y/2
	}
	cOff := src.COffset(b.Min.X, b.Min.Y)
	movePlane(dst.Cb, dst.CStride, src.Cb[cOff:], src.CStride, cw, ch, o)
	movePlane(dst.Cr, dst.CStride, src.Cr[cOff:], src.CStride, cw, ch, o)
	return dst
}

// movePlane writes the w×h plane src, oriented by o, into dst.
func movePlane(dst []byte, dstStride int, src []byte, srcStride, w, h, o int) {
	for sy := 0; sy < h; sy++ {
		row := src[sy*srcStride : sy*srcStride+w]
		for sx, v := range row {
			dx, dy := orientPoint(sx, sy, w, h, o)
			dst[dy*dstStride+dx] = v
		}
	}
}

// orientPoint maps a stored pixel (x, y) of a w×h image to where it
// displays under orientation o.
func orientPoint(x, y, w, h, o int) (int, int) {
	switch o {
	case 2:
		return w - 1 - x, y
	case 3:
		return w - 1 - x, h - 1 - y
	case 4:
		return x, h - 1 - y
	case 5:
		return y, x
	case 6:
		return h - 1 - y, x
	case 7:
		return h - 1 - y, w - 1 - x
	case 8:
		return y, w - 1 - x
	}
	return x, y
}
