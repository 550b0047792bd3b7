package media

import (
	"net/url"

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
	if cfg.Media.Storage == "s3" {
		return s3store.New(cfg.Media.S3, PublicBaseURL(cfg))
	}
	return local.New(cfg.Media.Dir, PublicBaseURL(cfg))
}

// PublicBaseURL is the address every file URL starts with:
// MEDIA_PUBLIC_BASE_URL, else PUBLIC_URL/media for local storage, else the
// bucket's own address (path or virtual-host style).
func PublicBaseURL(cfg *config.Config) string {
	m := cfg.Media
	switch {
	case m.PublicBaseURL != "":
		return m.PublicBaseURL
	case m.Storage == "s3":
		u, err := url.Parse(m.S3.Endpoint)
		if err != nil {
			return ""
		}
		if m.S3.ForcePathStyle {
			return u.Scheme + "://" + u.Host + "/" + m.S3.Bucket
		}
		return u.Scheme + "://" + m.S3.Bucket + "." + u.Host
	}
	return storage.JoinURL(cfg.PublicURL, "media")
}
