package media

import (
	"time"

	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Renditions are the URLs of an image's sizes; nil until it is ready.
type Renditions struct {
	Thumb  *string `json:"thumb"`
	Medium *string `json:"medium"`
	Large  *string `json:"large"`
}

// Image is an image as the admin API answers it.
type Image struct {
	ID        uuid.UUID `json:"id"`
	ProductID uuid.UUID `json:"productId"`
	Status    string    `json:"status"`
	// FailureReason says why a failed image could not be processed.
	FailureReason *string     `json:"failureReason"`
	Alt           string      `json:"alt"`
	Position      int         `json:"position"`
	Width         int         `json:"width"`
	Height        int         `json:"height"`
	VariantIDs    []uuid.UUID `json:"variantIds"`
	// URL is the full-size upright image; nil until ready.
	URL        *string    `json:"url"`
	Renditions Renditions `json:"renditions"`
	CreatedAt  time.Time  `json:"createdAt"`
}

// PublicImage is a ready image as the storefront answers it.
type PublicImage struct {
	ID         uuid.UUID   `json:"id"`
	Alt        string      `json:"alt"`
	Width      int         `json:"width"`
	Height     int         `json:"height"`
	URL        string      `json:"url"`
	Renditions Renditions  `json:"renditions"`
	VariantIDs []uuid.UUID `json:"variantIds"`
}

func (s *Service) url(key *string) *string {
	if key == nil {
		return nil
	}
	u := s.store.URL(*key)
	return &u
}

func (s *Service) view(row models.ProductImage, variants []uuid.UUID) Image {
	if variants == nil {
		variants = []uuid.UUID{}
	}
	return Image{
		ID: row.ID, ProductID: row.ProductID, Status: row.Status, FailureReason: row.FailureReason,
		Alt: row.Alt, Position: row.Position, Width: row.Width, Height: row.Height, VariantIDs: variants,
		URL:        s.url(row.FullKey),
		Renditions: Renditions{Thumb: s.url(row.ThumbKey), Medium: s.url(row.MediumKey), Large: s.url(row.LargeKey)},
		CreatedAt:  row.CreatedAt.UTC(),
	}
}
