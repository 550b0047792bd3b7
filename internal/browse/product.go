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
		return nil, apperr.NotFoundf("product")
	}
	key := cache.Key("product", idOrSlug, groupKey(group))
	page, version := s.cached(ctx, key)
	if page != nil && page.Len() == 1 {
		if err := s.overlayStock(ctx, version, page); err != nil {
			return nil, err
		}
		return page, nil
	}
	where := "p.slug = @key"
	var arg any = idOrSlug
	if id, err := uuid.Parse(idOrSlug); err == nil {
		where, arg = "p.id = @key", id
	}
	var rows []productRow
	err := s.db.WithContext(ctx).Raw("SELECT "+productColumns+" FROM products p"+groupPriceJoin+
		" WHERE "+where+" AND p.status = 'active'", map[string]any{"group": group, "key": arg}).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("browse.product: %w", err)
	}
	if len(rows) == 0 {
		return nil, apperr.NotFoundf("product")
	}
	ids, parts, err := s.assemble(ctx, group, rows)
	if err != nil {
		return nil, err
	}
	p := newPage(ids, parts, false, 1)
	s.catalog.Set(ctx, CatalogNamespace, version, key, p)
	s.storeStock(ctx, version, p)
	return p, nil
}
