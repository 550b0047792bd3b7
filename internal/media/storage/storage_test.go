package storage_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gocommerce/shop/internal/media/storage"
	"github.com/gocommerce/shop/internal/media/storage/local"
)

func TestValidKeyKeepsKeysInsideTheStore(t *testing.T) {
	for key, want := range map[string]bool{
		"products/a1/b2/0123abcd.jpg": true, "uploads/5f0e-11": true,
		"": false, "/etc/passwd": false, "../x": false, "a/../b": false, "a/./b": false, "a//b": false, "a/": false,
		`a\b`: false, "A.jpg": false, "a.b.c": false, "a/.hidden": false, "a b": false, "a/%2e%2e/b": false,
	} {
		if got := storage.ValidKey(key); got != want {
			t.Errorf("ValidKey(%q) = %v, want %v", key, got, want)
		}
	}
}

func TestLocalStoreWritesReadsAndDeletes(t *testing.T) {
	dir := t.TempDir()
	s, err := local.New(dir, "https://cdn.example.com/m/")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := s.Put(ctx, storage.Object{Key: "products/p/i/ab.jpg", Data: []byte("jpeg")}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, "products/p/i/ab.jpg", 10); err != nil || string(got) != "jpeg" {
		t.Fatalf("get %q %v", got, err)
	}
	if _, err := s.Get(ctx, "products/p/i/ab.jpg", 3); err == nil {
		t.Fatal("a file over the limit was read")
	}
	if s.URL("products/p/i/ab.jpg") != "https://cdn.example.com/m/products/p/i/ab.jpg" {
		t.Fatalf("URL %s", s.URL("products/p/i/ab.jpg"))
	}
	if err := s.Put(ctx, storage.Object{Key: "../escape", Data: []byte("x")}); !errors.Is(err, storage.ErrInvalidKey) {
		t.Fatalf("put ../escape: %v", err)
	}
	if _, _, err := s.Open("products/p"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("a directory opened: %v", err)
	}
	if err := s.Delete(ctx, "products/p/i/ab.jpg"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "products/p/i/ab.jpg"); err != nil {
		t.Fatalf("a second delete: %v", err)
	}
	// The emptied directories went with the file; the root stays.
	if _, err := os.Stat(filepath.Join(dir, "products")); !os.IsNotExist(err) {
		t.Fatalf("empty directories left: %v", err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
}
