package browse

import (
	"context"
	"fmt"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/cache"
	"github.com/google/uuid"
)

// Product returns the active product with id or slug idOrSlug priced for
// group. Errors: NOT_FOUND (unknown, draft or archived).
func (s *Service) Product(ctx context.Context, group *uuid.UUID, idOrSlug string) (*Page, error) {
	idOrSlug = strings.TrimSpace(idOrSlug)
	if idOrSlug == "" || len(idOrSlug) > 200 {
		return nil, apperr.Missing("product")
	}
	id, err := uuid.Parse(idOrSlug)
	byID := err == nil
	if byID && !canonicalUUID(idOrSlug) {
		// One key for the many spellings uuid.Parse accepts (case, braces,
		// urn:uuid:), which a client could otherwise vary without end.
		idOrSlug = id.String()
	}
	// Only products that exist are cached, so the keys are bounded by the
	// catalog (ids and slugs × customer groups).
	key := cache.Key("product", idOrSlug, groupKey(group))
	page, version := s.cached(ctx, key, true)
	if page != nil && page.Len() == 1 {
		if err := s.overlayStock(ctx, version, page); err != nil {
			return nil, err
		}
		return page, nil
	}
	where := "p.slug = @key"
	var arg any = idOrSlug
	if byID {
		where, arg = "p.id = @key", id
	}
	var rows []productRow
	err = s.db.WithContext(ctx).Raw("SELECT "+productColumns+" FROM products p"+groupPriceJoin+
		" WHERE "+where+" AND p.status = 'active'", map[string]any{"group": group, "key": arg}).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("browse.product: %w", err)
	}
	if len(rows) == 0 {
		return nil, apperr.Missing("product")
	}
	ids, parts, err := s.assemble(ctx, group, rows, false)
	if err != nil {
		return nil, err
	}
	p := newPage(ids, parts, false, 1)
	s.keep(ctx, key, version, true, p)
	s.storeStock(ctx, version, p)
	return p, nil
}

// canonicalUUID reports whether s, which uuid.Parse accepted, is already in
// uuid.UUID.String's form (36 characters, lower case), so the hit path
// need not allocate a new spelling.
func canonicalUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'F' {
			return false
		}
	}
	return true
}
