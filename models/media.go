package models

import (
	"time"

	"github.com/google/uuid"
)

// Product image statuses (docs/DECISIONS.md "Product media").
const (
	ImageProcessing = "processing"
	ImageReady      = "ready"
	ImageFailed     = "failed"
)

// ProductImage is an image of a product and the keys of its files.
type ProductImage struct {
	ID            uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	ProductID     uuid.UUID `gorm:"type:uuid"`
	Position      int
	Alt           string
	Status        string
	FailureReason *string
	Format        string
	ByteSize      int64
	Width         int
	Height        int
	SourceKey     *string
	FullKey       *string
	LargeKey      *string
	MediumKey     *string
	ThumbKey      *string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// ProductImageVariant ties an image to a variant it shows.
type ProductImageVariant struct {
	ImageID   uuid.UUID `gorm:"type:uuid;primaryKey"`
	VariantID uuid.UUID `gorm:"type:uuid;primaryKey"`
}
