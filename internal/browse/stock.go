package browse

import (
	"context"
	"fmt"

	"github.com/google/uuid"
)

// storeStock caches the availability of a page just read from the database.
func (s *Service) storeStock(ctx context.Context, catalogVersion string, p *Page) {
	m := make(map[uuid.UUID][]int, len(p.ids))
	for i, id := range p.ids {
		m[id] = p.avail[i]
	}
	s.stock.store(ctx, catalogVersion, m)
}

// overlayStock sets the availability of a page served from the catalog
// cache (which never holds it): from the stock store, else from one query
// over the missing products' variants. Figures are in catalog order, so a
// product's variants are matched by position; the database answer is
// matched by variant id through the order the page was rendered in.
func (s *Service) overlayStock(ctx context.Context, catalogVersion string, p *Page) error {
	got := s.stock.load(ctx, catalogVersion, p.ids, p.counts)
	var missing []uuid.UUID
	for _, id := range p.ids {
		if _, ok := got[id]; !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		fresh, err := s.availability(ctx, missing)
		if err != nil {
			return err
		}
		store := make(map[uuid.UUID][]int, len(fresh))
		for id, figures := range fresh {
			got[id], store[id] = figures, figures
		}
		s.stock.store(ctx, catalogVersion, store)
	}
	for i, id := range p.ids {
		figures := got[id]
		if len(figures) != p.counts[i] {
			figures = make([]int, p.counts[i]) // a variant vanished: show none available until the catalog refreshes
		}
		p.avail[i] = figures
	}
	return nil
}

// availability reads the units available of the variants of products ids,
// per product in catalog order (created_at, id: the order pages render).
func (s *Service) availability(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID][]int, error) {
	var rows []struct {
		ProductID uuid.UUID
		Available int
	}
	err := s.db.WithContext(ctx).Raw(`SELECT product_id, GREATEST(inventory - reserved - committed, 0) AS available
		FROM variants WHERE product_id IN ? ORDER BY product_id, created_at, id`, ids).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("browse.availability: %w", err)
	}
	m := make(map[uuid.UUID][]int, len(ids))
	for _, id := range ids {
		m[id] = []int{}
	}
	for _, r := range rows {
		m[r.ProductID] = append(m[r.ProductID], r.Available)
	}
	return m, nil
}
