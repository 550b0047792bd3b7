package config

import (
	"net/url"
	"strings"
)

// Media is where product images are kept and how big an upload may be
// (docs/DECISIONS.md "Product media").
type Media struct {
	// Storage is "local" (files under Dir, served by `shop api` at /media/)
	// or "s3" (an S3-compatible bucket).
	Storage string `env:"MEDIA_STORAGE" envDefault:"local"`
	Dir     string `env:"MEDIA_DIR" envDefault:"./data/media"`
	// PublicBaseURL is the address the files are fetched from (a CDN);
	// empty: PUBLIC_URL/media for local storage, the bucket's own address
	// for s3.
	PublicBaseURL string `env:"MEDIA_PUBLIC_BASE_URL"`
	// MaxBytes bounds an uploaded file; MaxPixels its width × height, read
	// from the header before any decoding.
	MaxBytes  int64 `env:"MEDIA_MAX_BYTES" envDefault:"10485760"`
	MaxPixels int64 `env:"MEDIA_MAX_PIXELS" envDefault:"40000000"`
	// DecodeConcurrency bounds the images one process decodes at once, and
	// so its memory (a 12-megapixel JPEG takes about 20 MiB decoded).
	DecodeConcurrency int `env:"MEDIA_DECODE_CONCURRENCY" envDefault:"2"`

	S3 S3
}

// S3 is the bucket of MEDIA_STORAGE=s3.
type S3 struct {
	// Endpoint is the service's URL, e.g. https://s3.ap-south-1.amazonaws.com.
	Endpoint string `env:"S3_ENDPOINT"`
	Bucket   string `env:"S3_BUCKET"`
	Region   string `env:"S3_REGION" envDefault:"us-east-1"`
	// AccessKeyID and SecretAccessKey are credentials: a secret.
	AccessKeyID     string `env:"S3_ACCESS_KEY_ID"`
	SecretAccessKey string `env:"S3_SECRET_ACCESS_KEY"`
	// ForcePathStyle addresses the bucket as endpoint/bucket rather than
	// bucket.endpoint (MinIO, SeaweedFS and most self-hosted servers).
	ForcePathStyle bool `env:"S3_FORCE_PATH_STYLE" envDefault:"false"`
}

func (m Media) validate() error {
	switch m.Storage {
	case "local":
		if strings.TrimSpace(m.Dir) == "" {
			return fieldErr("MEDIA_DIR", "must not be empty")
		}
	case "s3":
		if u, err := url.Parse(m.S3.Endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fieldErr("S3_ENDPOINT", "must be an http:// or https:// URL when MEDIA_STORAGE=s3")
		}
		if m.S3.Bucket == "" {
			return fieldErr("S3_BUCKET", "must be set when MEDIA_STORAGE=s3")
		}
		if m.S3.AccessKeyID == "" || m.S3.SecretAccessKey == "" {
			return fieldErr("S3_ACCESS_KEY_ID", "and S3_SECRET_ACCESS_KEY must be set when MEDIA_STORAGE=s3")
		}
	default:
		return fieldErr("MEDIA_STORAGE", "must be local or s3")
	}
	if m.PublicBaseURL != "" {
		if u, err := url.Parse(m.PublicBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fieldErr("MEDIA_PUBLIC_BASE_URL", "must be an http:// or https:// URL")
		}
	}
	if m.MaxBytes < 1024 || m.MaxBytes > 100<<20 {
		return fieldErr("MEDIA_MAX_BYTES", "must be between 1024 and 104857600")
	}
	if m.MaxPixels < 1 || m.MaxPixels > 100_000_000 {
		return fieldErr("MEDIA_MAX_PIXELS", "must be between 1 and 100000000")
	}
	if m.DecodeConcurrency < 1 {
		return fieldErr("MEDIA_DECODE_CONCURRENCY", "must be a positive integer")
	}
	return nil
}
