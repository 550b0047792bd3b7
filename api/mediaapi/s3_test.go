package mediaapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/testkit"
)

// s3Env is an app whose media store is a private SeaweedFS bucket.
func s3Env(t *testing.T) (*env, *testkit.PrivateS3) {
	t.Helper()
	s3 := testkit.StartS3(t)
	e := newEnv(t, testkit.WithConfig(func(c *config.Config) {
		c.Media.Storage = "s3"
		c.Media.S3 = config.S3{Endpoint: s3.Endpoint, Bucket: s3.Bucket, Region: "us-east-1",
			AccessKeyID: s3.AccessKey, SecretAccessKey: s3.SecretKey, ForcePathStyle: true}
	}))
	return e, s3
}

func TestImagesJourneyOnS3(t *testing.T) {
	e, s3 := s3Env(t)
	prefix := s3.Endpoint + "/" + s3.Bucket + "/"
	journey(t, e, store{
		keyOf: func(url string) string {
			if !strings.HasPrefix(url, prefix) {
				t.Fatalf("URL %s is not in the bucket %s", url, prefix)
			}
			return strings.TrimPrefix(url, prefix)
		},
		read: func(t *testing.T, key string) ([]byte, bool) {
			data, info, ok := s3.Read(t, key)
			if ok && strings.HasPrefix(key, "products/") {
				// Served by the bucket (or a CDN) as the API would serve it.
				if ct := info.ContentType; ct != "image/jpeg" && ct != "image/png" {
					t.Errorf("%s stored as %q", key, ct)
				}
				if cc := info.Metadata.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
					t.Errorf("%s Cache-Control %q", key, cc)
				}
				if cd := info.Metadata.Get("Content-Disposition"); !strings.HasPrefix(cd, "inline;") {
					t.Errorf("%s Content-Disposition %q", key, cd)
				}
			}
			return data, ok
		},
		keys: func(t *testing.T) []string { return s3.Keys(t) },
	})
}

// /readyz reports the bucket: ready while it answers, 503 naming media
// once it is gone.
func TestReadyzChecksTheS3Store(t *testing.T) {
	e, s3 := s3Env(t)
	ready := e.app.Do(t, http.MethodGet, "/readyz", testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	if ready["checks"].(map[string]any)["media"] != "ok" {
		t.Fatalf("readyz %v", ready)
	}
	s3.Stop()
	body := e.app.Do(t, http.MethodGet, "/readyz", testkit.Req{}).ExpectError(t, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	if checks := body.Error.Details["checks"].(map[string]any); checks["media"] != "error" || checks["database"] != "ok" {
		t.Fatalf("checks %v", checks)
	}
}
