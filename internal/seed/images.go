package seed

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math"

	"github.com/gocommerce/shop/internal/media"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Uploader takes a product image (media.Service).
type Uploader interface {
	Upload(ctx context.Context, productID uuid.UUID, in media.UploadInput) (media.Image, error)
}

// imagedProducts bounds the demo products that get pictures: a bench
// catalog of thousands seeds no images.
const imagedProducts = 50

// seedImages gives the first products two pictures each, drawn here (no
// download): a front and a detail view in the product's own colour. They
// go through the upload path, so the worker makes their renditions.
func seedImages(ctx context.Context, db *gorm.DB, up Uploader) error {
	var rows []struct {
		ID    uuid.UUID
		Title string
	}
	if err := db.Raw(`SELECT id, title FROM products ORDER BY created_at, id LIMIT ?`, imagedProducts).Scan(&rows).Error; err != nil {
		return err
	}
	for i, r := range rows {
		hue := math.Mod(float64(i)*47, 360)
		for view, alt := range []string{r.Title + ", front", r.Title + ", detail"} {
			data, err := demoPicture(hue, view)
			if err != nil {
				return err
			}
			if _, err := up.Upload(ctx, r.ID, media.UploadInput{Data: data, Alt: alt}); err != nil {
				return fmt.Errorf("image of %s: %w", r.Title, err)
			}
		}
	}
	return nil
}

// demoPicture draws an 800×800 studio shot: a soft backdrop, the product as
// a rounded shape with a shadow, a label; view 1 is a close-up.
func demoPicture(hue float64, view int) ([]byte, error) {
	const size = 800
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	main := hsl(hue, 0.55, 0.5)
	dark := hsl(hue, 0.55, 0.32)
	scale := 1.0
	if view == 1 {
		scale = 1.6
	}
	cx, cy := float64(size)/2, float64(size)/2+20
	rx, ry := 230*scale, 270*scale
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			// Backdrop: a vertical gradient of a pale tint.
			t := float64(y) / size
			c := hsl(hue, 0.25, 0.94-0.1*t)
			// Shadow under the product.
			if sx, sy := (float64(x)-cx)/(rx*0.9), (float64(y)-(cy+ry*0.95))/(ry*0.12); sx*sx+sy*sy <= 1 {
				c = hsl(hue, 0.15, 0.75)
			}
			// The product: a superellipse, shaded left to right.
			dx, dy := math.Abs(float64(x)-cx)/rx, math.Abs(float64(y)-cy)/ry
			if dx*dx*dx*dx+dy*dy*dy*dy <= 1 {
				shade := 0.58 - 0.16*(float64(x)-cx+rx)/(2*rx)
				c = hsl(hue, 0.55, shade)
				// A label band across the middle.
				if math.Abs(float64(y)-cy) < 40*scale && dx < 0.6 {
					c = dark
				}
				if math.Abs(float64(y)-cy) < 8*scale && dx < 0.5 {
					c = main
				}
			}
			img.SetRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 88}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// hsl converts hue (degrees), saturation and lightness to an opaque colour.
func hsl(h, s, l float64) color.RGBA {
	c := (1 - math.Abs(2*l-1)) * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := l - c/2
	var r, g, b float64
	switch {
	case h < 60:
		r, g, b = c, x, 0
	case h < 120:
		r, g, b = x, c, 0
	case h < 180:
		r, g, b = 0, c, x
	case h < 240:
		r, g, b = 0, x, c
	case h < 300:
		r, g, b = x, 0, c
	default:
		r, g, b = c, 0, x
	}
	return color.RGBA{uint8((r + m) * 255), uint8((g + m) * 255), uint8((b + m) * 255), 255}
}
