// Package local stores media files in a directory (MEDIA_DIR), one file per
// key; `shop api` serves them at /media/ (api/mediaapi). Writes go to a
// temporary file in the same directory that is renamed into place, so a
// reader sees the old file or the new one, never a part.
package local

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gocommerce/shop/internal/media/storage"
)

// Store is a directory of media files.
type Store struct {
	root    string
	baseURL string
}

// New returns the store rooted at dir (created if missing), whose files are
// public at baseURL/key.
func New(dir, baseURL string) (*Store, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("media: MEDIA_DIR: %w", err)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("media: MEDIA_DIR: %w", err)
	}
	return &Store{root: root, baseURL: baseURL}, nil
}

// Kind is "local".
func (s *Store) Kind() string { return "local" }

// Root is the directory the files are in.
func (s *Store) Root() string { return s.root }

// URL is the public address of key.
func (s *Store) URL(key string) string { return storage.JoinURL(s.baseURL, key) }

// path returns the file of key; ValidKey keeps it under root.
func (s *Store) path(key string) (string, error) {
	if !storage.ValidKey(key) {
		return "", storage.ErrInvalidKey
	}
	return filepath.Join(s.root, filepath.FromSlash(key)), nil
}

// Put writes o's file atomically.
func (s *Store) Put(_ context.Context, o storage.Object) error {
	p, err := s.path(o.Key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("media.local.put: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".put-*")
	if err != nil {
		return fmt.Errorf("media.local.put: %w", err)
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	if _, err := tmp.Write(o.Data); err != nil {
		tmp.Close()
		return fmt.Errorf("media.local.put: %w", err)
	}
	// Flushed before the rename: after a crash the name holds the whole
	// file or nothing.
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("media.local.put: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("media.local.put: %w", err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("media.local.put: %w", err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return fmt.Errorf("media.local.put: %w", err)
	}
	return nil
}

// Get reads key's file.
func (s *Store) Get(_ context.Context, key string, limit int64) ([]byte, error) {
	f, _, err := s.Open(key)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("media.local.get: %w", err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("media.local.get: %s is larger than %d bytes", key, limit)
	}
	return data, nil
}

// Open opens key's file for serving. Errors: storage.ErrInvalidKey,
// storage.ErrNotFound (also for a directory: none is ever listed).
func (s *Store) Open(key string) (*os.File, fs.FileInfo, error) {
	p, err := s.path(key)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, storage.ErrNotFound
	}
	if err != nil {
		return nil, nil, fmt.Errorf("media.local.open: %w", err)
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, storage.ErrNotFound
	}
	return f, info, nil
}

// Delete removes key's file and the directories it leaves empty.
func (s *Store) Delete(_ context.Context, key string) error {
	p, err := s.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("media.local.delete: %w", err)
	}
	// Best effort: a directory another key still uses is not empty.
	for dir := filepath.Dir(p); dir != s.root && strings.HasPrefix(dir, s.root+string(filepath.Separator)); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil {
			break
		}
	}
	return nil
}

// Ping checks that the directory exists and takes a file.
func (s *Store) Ping(context.Context) error {
	f, err := os.CreateTemp(s.root, ".ping-*")
	if err != nil {
		return fmt.Errorf("media.local.ping: %w", err)
	}
	f.Close()
	return os.Remove(f.Name())
}
