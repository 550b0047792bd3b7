package browse

import (
	"context"
	"encoding/json"
	"fmt"
)

// A document is a Page without products: a rendered JSON answer with no
// availability to lay over (the category tree, a list of collections, a
// collection's own record). It goes through the same caches as product
// pages (the memo, and Redis for keys the catalog bounds), tagged with the
// catalog version, so a catalog write retires it like any product page.
func newDocument(body []byte, total int64) *Page {
	return &Page{Total: total, body: body}
}

// document returns the document under key: cached, or made by load (the
// value to render, its total, and whether it may go to Redis). shared says
// whether key is bounded by the catalog; load can veto sharing (an empty
// answer, say). load's error is returned as it is.
func (s *Service) document(ctx context.Context, key string, shared bool, load func() (v any, total int64, share bool, err error)) (*Page, error) {
	// cached reads the catalog version before load reads the database, so a
	// write landing in between files this answer under the old version,
	// where nobody reads it again.
	page, version := s.cached(ctx, key, shared)
	if page != nil {
		return page, nil
	}
	v, total, share, err := load()
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("browse.document: %w", err)
	}
	p := newDocument(body, total)
	s.keep(ctx, key, version, shared && share, p)
	return p, nil
}
