// Package s3store stores media files in an S3-compatible bucket (AWS S3,
// MinIO, SeaweedFS, R2 ...) through minio-go, a maintained client with no
// dependency on the AWS SDK. Objects carry the headers the local store's
// server sends (type, immutable caching, inline disposition), so a CDN or
// the bucket itself can serve them as they are.
package s3store

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"path"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/media/storage"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// Store is a bucket of media files.
type Store struct {
	client  *minio.Client
	bucket  string
	baseURL string
}

// New returns the store of cfg whose objects are public at baseURL/key.
func New(cfg config.S3, baseURL string) (*Store, error) {
	u, err := url.Parse(cfg.Endpoint)
	if err != nil {
		return nil, fmt.Errorf("media: S3_ENDPOINT: %w", err)
	}
	lookup := minio.BucketLookupDNS
	if cfg.ForcePathStyle {
		lookup = minio.BucketLookupPath
	}
	client, err := minio.New(u.Host, &minio.Options{
		Creds:        credentials.NewStaticV4(cfg.AccessKeyID, cfg.SecretAccessKey, ""),
		Secure:       u.Scheme == "https",
		Region:       cfg.Region,
		BucketLookup: lookup,
	})
	if err != nil {
		return nil, fmt.Errorf("media: S3: %w", err)
	}
	return &Store{client: client, bucket: cfg.Bucket, baseURL: baseURL}, nil
}

// Kind is "s3".
func (s *Store) Kind() string { return "s3" }

// URL is the public address of key.
func (s *Store) URL(key string) string { return storage.JoinURL(s.baseURL, key) }

// Put uploads o with its serving headers.
func (s *Store) Put(ctx context.Context, o storage.Object) error {
	if !storage.ValidKey(o.Key) {
		return storage.ErrInvalidKey
	}
	_, err := s.client.PutObject(ctx, s.bucket, o.Key, bytes.NewReader(o.Data), int64(len(o.Data)), minio.PutObjectOptions{
		ContentType:        o.ContentType,
		CacheControl:       storage.CacheControl,
		ContentDisposition: storage.Disposition(path.Base(o.Key)),
	})
	if err != nil {
		return fmt.Errorf("media.s3.put: %w", err)
	}
	return nil
}

// Get downloads key.
func (s *Store) Get(ctx context.Context, key string, limit int64) ([]byte, error) {
	if !storage.ValidKey(key) {
		return nil, storage.ErrInvalidKey
	}
	obj, err := s.client.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, s.translate("get", err)
	}
	defer obj.Close()
	data, err := io.ReadAll(io.LimitReader(obj, limit+1))
	if err != nil {
		return nil, s.translate("get", err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("media.s3.get: %s is larger than %d bytes", key, limit)
	}
	return data, nil
}

// Delete removes key (S3 answers a missing key with success).
func (s *Store) Delete(ctx context.Context, key string) error {
	if !storage.ValidKey(key) {
		return storage.ErrInvalidKey
	}
	if err := s.client.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{}); err != nil {
		return s.translate("delete", err)
	}
	return nil
}

// Ping checks that the bucket exists and the credentials can see it.
func (s *Store) Ping(ctx context.Context) error {
	ok, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("media.s3.ping: %w", err)
	}
	if !ok {
		return fmt.Errorf("media.s3.ping: bucket %s does not exist", s.bucket)
	}
	return nil
}

func (s *Store) translate(op string, err error) error {
	if minio.ToErrorResponse(err).Code == minio.NoSuchKey {
		return storage.ErrNotFound
	}
	return fmt.Errorf("media.s3.%s: %w", op, err)
}
