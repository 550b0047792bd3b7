package media

import (
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/media/storage"
	"github.com/gocommerce/shop/internal/media/storage/local"
	"github.com/gocommerce/shop/internal/media/storage/s3store"
)

// OpenStore returns the store cfg.Media names: a local directory
// (MEDIA_DIR) whose files are public at MEDIA_PUBLIC_BASE_URL, else
// PUBLIC_URL/media; or an S3 bucket, public at MEDIA_PUBLIC_BASE_URL, else
// its own address.
func OpenStore(cfg *config.Config) (storage.Store, error) {
	m := cfg.Media
	if m.Storage == "s3" {
		return s3store.New(m.S3, m.PublicBaseURL)
	}
	base := m.PublicBaseURL
	if base == "" {
		base = storage.JoinURL(cfg.PublicURL, "media")
	}
	return local.New(m.Dir, base)
}
