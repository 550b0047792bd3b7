package browse

import (
	"context"
	"fmt"

	"github.com/google/uuid"
)

// storeStock caches the availability of products just read from the
// database.
func (s *Service) storeStock(ctx context.Context, catalogVersion string, products []Rendered) {
	m := make(map[uuid.UUID][]int, len(products))
	for _, p := range products {
		figures := make([]int, len(p.Variants))
		for i, v := range p.Variants {
			figures[i] = v.Available
		}
		m[p.ID] = figures
	}
	s.stock.store(ctx, catalogVersion, m)
}

// overlayStock writes current availability into products served from the
// catalog cache (which never holds it): from the stock store, else from one
// query over the missing products' variants.
func (s *Service) overlayStock(ctx context.Context, catalogVersion string, products []Rendered) error {
	ids := make([]uuid.UUID, len(products))
	wants := make([]int, len(products))
	for i, p := range products {
		ids[i], wants[i] = p.ID, len(p.Variants)
	}
	got := s.stock.load(ctx, catalogVersion, ids, wants)
	var missing []uuid.UUID
	for _, id := range ids {
		if _, ok := got[id]; !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		fresh, err := s.availability(ctx, missing)
		if err != nil {
			return err
		}
		store := make(map[uuid.UUID][]int, len(missing))
		for i := range products {
			p := &products[i]
			m, ok := fresh[p.ID]
			if !ok {
				continue
			}
			figures := make([]int, len(p.Variants))
			for j, v := range p.Variants {
				figures[j] = m[v.ID]
			}
			got[p.ID], store[p.ID] = figures, figures
		}
		s.stock.store(ctx, catalogVersion, store)
	}
	for i := range products {
		figures := got[products[i].ID]
		for j := range products[i].Variants {
			products[i].Variants[j].Available = figures[j]
		}
	}
	return nil
}

// availability reads the units available of the variants of products ids.
func (s *Service) availability(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]map[uuid.UUID]int, error) {
	var rows []struct {
		ID        uuid.UUID
		ProductID uuid.UUID
		Available int
	}
	err := s.db.WithContext(ctx).Raw(`SELECT id, product_id, GREATEST(inventory - reserved - committed, 0) AS available
		FROM variants WHERE product_id IN ?`, ids).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("browse.availability: %w", err)
	}
	m := make(map[uuid.UUID]map[uuid.UUID]int, len(ids))
	for _, id := range ids {
		m[id] = map[uuid.UUID]int{}
	}
	for _, r := range rows {
		m[r.ProductID][r.ID] = r.Available
	}
	return m, nil
}
