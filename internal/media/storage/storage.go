// Package storage keeps product media files behind one small interface,
// Store, with two implementations: local (a directory that `shop api`
// serves at /media/) and s3store (an S3-compatible bucket). Keys are
// relative slash-separated paths made by the media service; ValidKey is
// the only shape either store accepts, so no key can leave its root.
package storage

import (
	"context"
	"errors"
	"regexp"
	"strings"
)

// ErrNotFound is an object that is not in the store.
var ErrNotFound = errors.New("storage: object not found")

// ErrInvalidKey is a key that ValidKey refuses.
var ErrInvalidKey = errors.New("storage: invalid key")

// Object is a file to store with the headers it is served with.
type Object struct {
	Key         string
	ContentType string
	Data        []byte
}

// Store keeps objects by key. Every method is safe for concurrent use.
type Store interface {
	// Put writes an object whole or not at all (a reader never sees half
	// a file); writing a key again replaces it.
	Put(ctx context.Context, o Object) error
	// Get reads an object of at most limit bytes. Errors: ErrNotFound, and
	// an error when the object is larger than limit.
	Get(ctx context.Context, key string, limit int64) ([]byte, error)
	// Delete removes an object; a missing one is not an error.
	Delete(ctx context.Context, key string) error
	// Ping reports whether the store can be written to, for /readyz.
	Ping(ctx context.Context) error
	// URL is the public address of a key (MEDIA_PUBLIC_BASE_URL/key).
	URL(key string) string
	// Kind is "local" or "s3".
	Kind() string
}

// keyPattern: lower-case letters, digits, '-', '_' and one '.' per
// segment, segments joined by '/'; no empty, '.' or '..' segment.
var keyPattern = regexp.MustCompile(`^[a-z0-9_-]+(\.[a-z0-9]+)?(/[a-z0-9_-]+(\.[a-z0-9]+)?)*$`)

// ValidKey reports whether key is a shape the stores accept.
func ValidKey(key string) bool {
	return len(key) <= 512 && keyPattern.MatchString(key)
}

// JoinURL joins a base address and a key with one slash.
func JoinURL(base, key string) string {
	return strings.TrimSuffix(base, "/") + "/" + key
}

// CacheControl is sent with every object: a key names one content for
// ever (the media service puts a hash of the bytes in it), so caches may
// keep it for a year without asking again.
const CacheControl = "public, max-age=31536000, immutable"

// Disposition is the Content-Disposition of an object named name (a key's
// last segment, which ValidKey limits to safe characters): shown in the
// browser, never saved under a name the uploader chose.
func Disposition(name string) string {
	return `inline; filename="` + name + `"`
}
