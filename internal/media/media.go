// Package media owns product images (docs/DECISIONS.md "Product media"):
// intake of an upload, the renditions the worker makes from it, their
// order, alt text and variants, their deletion, and the views the admin
// API and the storefront answer with.
//
// Life of an image: Upload checks the file's header (format by content,
// pixel count) without decoding it, stores it under a private source key,
// inserts the row as processing and queues tasks.TypeMediaProcess after
// commit. Process (the worker) re-checks and decodes it under a bound on
// concurrent decodes, writes the renditions under keys that name their
// content, and marks the row ready (or failed with the reason); the
// source file is deleted through the deletion outbox either way, so no
// stored file keeps the upload's metadata. Deleting an image (or its
// product) writes its keys to media_deletions in the same transaction (a
// trigger); Sweep deletes the files after commit.
//
// Every change a shopper can see invalidates the storefront's catalog
// cache namespace after commit.
package media

import (
	"context"
	"errors"
	"log/slog"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/cache"
	"github.com/gocommerce/shop/internal/media/storage"
	"github.com/gocommerce/shop/tasks"
	"gorm.io/gorm"
)

// MaxImagesPerProduct bounds a product's images.
const MaxImagesPerProduct = 50

// CatalogNamespace is the cache namespace of the storefront's catalog
// reads (browse.CatalogNamespace), bumped when a shopper-visible image
// changes.
const CatalogNamespace = "catalog"

// Limits bound an upload.
type Limits struct {
	MaxBytes  int64
	MaxPixels int64
	// DecodeConcurrency bounds the images this process decodes at once.
	DecodeConcurrency int
}

// Service manages product images.
type Service struct {
	db     *gorm.DB
	store  storage.Store
	cache  *cache.Cache
	queue  tasks.Enqueuer
	log    *slog.Logger
	limits Limits
	// decodes holds a token per image being decoded: a decoded 12-megapixel
	// photograph takes tens of MiB, so the worker's memory is bounded by
	// this, not by its task concurrency.
	decodes chan struct{}
	// afterRender, when set (tests), runs between writing the renditions
	// and marking the row ready; an error stands for the process dying there.
	afterRender func() error
}

// New returns the service.
func New(db *gorm.DB, store storage.Store, c *cache.Cache, q tasks.Enqueuer, log *slog.Logger, l Limits) *Service {
	if l.DecodeConcurrency < 1 {
		l.DecodeConcurrency = 1
	}
	return &Service{db: db, store: store, cache: c, queue: q, log: log, limits: l, decodes: make(chan struct{}, l.DecodeConcurrency)}
}

// DB is the service's database handle (admin reads use the primary).
func (s *Service) DB() *gorm.DB { return s.db }

// Store is the storage the files are kept in.
func (s *Service) Store() storage.Store { return s.store }

// Limits are the upload limits in force.
func (s *Service) Limits() Limits { return s.limits }

// Errors a client sees.
var (
	errProductNotFound = apperr.Missing("product")
	errImageNotFound   = apperr.Missing("image")
	// ErrUnsupportedMedia is content that is not a JPEG, PNG, WebP or GIF
	// image (415).
	ErrUnsupportedMedia = &apperr.Error{Code: apperr.Validation, Status: 415,
		Message: "file must be a JPEG, PNG, WebP or GIF image", Details: map[string]any{"field": "file", "issue": "unsupported media type"}}
	// ErrTooLarge is a file over MEDIA_MAX_BYTES (413).
	ErrTooLarge = &apperr.Error{Code: apperr.Validation, Status: 413,
		Message: "file is too large", Details: map[string]any{"field": "file", "issue": "exceeds the size limit"}}
)

// invalidate makes the storefront's cached catalog reads stale; a failure
// only means stale reads until the TTL.
func (s *Service) invalidate(ctx context.Context) {
	if s.cache == nil {
		return
	}
	if err := s.cache.Invalidate(ctx, CatalogNamespace); err != nil {
		s.log.ErrorContext(ctx, "catalog cache not invalidated after an image change", "err", err)
	}
}

// translate maps driver errors onto coded ones.
func translate(err error, notFound *apperr.Error) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return notFound
	}
	return err
}
