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
func (s *Service) Product(ctx context.Context, group *uuid.UUID, idOrSlug string) (*Rendered, error) {
	idOrSlug = strings.TrimSpace(idOrSlug)
	if idOrSlug == "" || len(idOrSlug) > 200 {
		return nil, apperr.NotFoundf("product")
	}
	key := cache.Key("product", idOrSlug, groupKey(group))
	var p Rendered
	hit, version := s.catalog.Get(ctx, CatalogNamespace, key, &p)
	if hit {
		one := []Rendered{p}
		if err := s.overlayStock(ctx, version, one); err != nil {
			return nil, err
		}
		return &one[0], nil
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
	out, err := s.assemble(ctx, group, rows)
	if err != nil {
		return nil, err
	}
	s.catalog.Set(ctx, CatalogNamespace, version, key, out[0])
	s.storeStock(ctx, version, out)
	return &out[0], nil
}
