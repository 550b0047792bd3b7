package browse

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/cache"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/google/uuid"
)

// CollectionInfo is a collection as shoppers see it.
type CollectionInfo struct {
	ID          uuid.UUID `json:"id"`
	Name        string    `json:"name"`
	Slug        string    `json:"slug"`
	Description string    `json:"description"`
	ImageURL    string    `json:"imageUrl"`
}

const collectionColumns = `id, name, slug, description, image_url`

// sharedWindow reports whether a page at w may be cached in Redis: the
// first sharedPages pages at the default size, as for product lists (see
// ListQuery.shared); other windows are a client's free choice.
func sharedWindow(w paging.Window) bool {
	return w.Limit == sharedLimit && w.Offset%sharedLimit == 0 && w.Offset < sharedPages*sharedLimit
}

// Collections returns a page of collections, newest first, rendered as a
// JSON array, with their number in Total.
func (s *Service) Collections(ctx context.Context, w paging.Window) (*Page, error) {
	key := cache.Key("collections", cache.Itoa(w.Limit), cache.Itoa(w.Offset))
	return s.document(ctx, key, sharedWindow(w), func() (any, int64, bool, error) {
		db := s.db.WithContext(ctx)
		rows := []CollectionInfo{}
		err := db.Raw(`SELECT `+collectionColumns+` FROM collections ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
			w.Limit, w.Offset).Scan(&rows).Error
		if err != nil {
			return nil, 0, false, fmt.Errorf("browse.collections: %w", err)
		}
		total, err := paging.Total(len(rows), w, func() (int64, error) {
			var n int64
			err := db.Raw(`SELECT count(*) FROM collections`).Scan(&n).Error
			return n, err
		})
		if err != nil {
			return nil, 0, false, fmt.Errorf("browse.collections_count: %w", err)
		}
		return rows, total, len(rows) > 0, nil
	})
}

// CollectionPage is a collection and a page of its active products.
type CollectionPage struct {
	// Collection is the collection's record (a JSON object).
	Collection *Page
	// Products is a page of its active products, most recently added
	// first, priced for the caller's group, as GET /products lists them.
	Products *Page
}

// Collection returns the collection with slug and the page w of its active
// products priced for group. Errors: NOT_FOUND (no such collection).
func (s *Service) Collection(ctx context.Context, group *uuid.UUID, slug string, w paging.Window) (*CollectionPage, error) {
	slug = strings.TrimSpace(slug)
	if slug == "" || len(slug) > 200 {
		return nil, apperr.Missing("collection")
	}
	// Only collections that exist are cached, so the keys are bounded by
	// the catalog.
	head, err := s.document(ctx, cache.Key("collection", slug), true, func() (any, int64, bool, error) {
		var rows []CollectionInfo
		if err := s.db.WithContext(ctx).Raw(`SELECT `+collectionColumns+` FROM collections WHERE slug = ?`, slug).
			Scan(&rows).Error; err != nil {
			return nil, 0, false, fmt.Errorf("browse.collection: %w", err)
		}
		if len(rows) == 0 {
			return nil, 0, false, apperr.Missing("collection")
		}
		return rows[0], 1, true, nil
	})
	if err != nil {
		return nil, err
	}
	var info CollectionInfo
	if err := json.Unmarshal(head.body, &info); err != nil {
		return nil, fmt.Errorf("browse.collection_decode: %w", err)
	}
	products, err := s.collectionProducts(ctx, group, info.ID, w)
	if err != nil {
		return nil, err
	}
	return &CollectionPage{Collection: head, Products: products}, nil
}

// collectionProducts is List for one collection's products: the same
// rendering, caches and availability overlay, in the collection's order.
func (s *Service) collectionProducts(ctx context.Context, group *uuid.UUID, collection uuid.UUID, w paging.Window) (*Page, error) {
	key := cache.Key("clist", groupKey(group), collection.String(), cache.Itoa(w.Limit), cache.Itoa(w.Offset))
	shared := sharedWindow(w)
	page, version := s.cached(ctx, key, shared)
	if page != nil {
		if err := s.overlayStock(ctx, version, page); err != nil {
			return nil, err
		}
		return page, nil
	}
	db := s.db.WithContext(ctx)
	const from = ` FROM collection_products cp JOIN products p ON p.id = cp.product_id`
	const where = ` WHERE cp.collection_id = @collection AND p.status = 'active'`
	var rows []productRow
	err := db.Raw("SELECT "+productColumns+from+groupPriceJoin+where+
		" ORDER BY cp.created_at DESC, cp.product_id DESC LIMIT @limit OFFSET @offset",
		map[string]any{"group": group, "collection": collection, "limit": w.Limit, "offset": w.Offset}).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("browse.collection_products: %w", err)
	}
	ids, parts, err := s.assemble(ctx, group, rows, true)
	if err != nil {
		return nil, err
	}
	total, err := paging.Total(len(rows), w, func() (int64, error) {
		var n int64
		err := db.Raw("SELECT count(*)"+from+where, map[string]any{"collection": collection}).Scan(&n).Error
		return n, err
	})
	if err != nil {
		return nil, fmt.Errorf("browse.collection_count: %w", err)
	}
	p := newPage(ids, parts, true, total)
	s.keep(ctx, key, version, shared && len(rows) > 0, p)
	s.storeStock(ctx, version, p)
	return p, nil
}
