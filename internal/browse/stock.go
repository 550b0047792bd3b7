package browse

import (
	"context"
	"fmt"

	"github.com/google/uuid"
)

// stockKey ties an availability entry to the catalog version it was read
// with, so a catalog change (a new variant) never meets an old stock map.
func stockKey(catalogVersion, key string) string { return catalogVersion + ":" + key }

// storeStock caches the availability of products' variants under key.
func (s *Service) storeStock(ctx context.Context, catalogVersion, key string, products []Product) {
	if catalogVersion == "" {
		return
	}
	m := map[uuid.UUID]int{}
	for _, p := range products {
		for _, v := range p.Variants {
			m[v.ID] = v.Available
		}
	}
	var none struct{}
	_, version := s.stock.Get(ctx, StockNamespace, "version-probe", &none)
	s.stock.Set(ctx, StockNamespace, version, stockKey(catalogVersion, key), m)
}

// overlayStock writes current availability into products cached without
// it: from the stock cache, else from one query over their variants.
func (s *Service) overlayStock(ctx context.Context, catalogVersion, key string, products []Product) error {
	var m map[uuid.UUID]int
	hit, version := s.stock.Get(ctx, StockNamespace, stockKey(catalogVersion, key), &m)
	if !hit {
		var ids []uuid.UUID
		for _, p := range products {
			for _, v := range p.Variants {
				ids = append(ids, v.ID)
			}
		}
		var err error
		if m, err = s.availability(ctx, ids); err != nil {
			return err
		}
		s.stock.Set(ctx, StockNamespace, version, stockKey(catalogVersion, key), m)
	}
	for i := range products {
		p := &products[i]
		for j := range p.Variants {
			v := &p.Variants[j]
			v.Available = m[v.ID]
			v.InStock = v.Available > 0
		}
		tallyStock(p)
	}
	return nil
}

// availability reads the units available of variants ids.
func (s *Service) availability(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]int, error) {
	m := make(map[uuid.UUID]int, len(ids))
	if len(ids) == 0 {
		return m, nil
	}
	var rows []struct {
		ID        uuid.UUID
		Available int
	}
	err := s.db.WithContext(ctx).Raw(`SELECT id, GREATEST(inventory - reserved - committed, 0) AS available
		FROM variants WHERE id IN ?`, ids).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("browse.availability: %w", err)
	}
	for _, r := range rows {
		m[r.ID] = r.Available
	}
	return m, nil
}
