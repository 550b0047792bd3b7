package stock

import (
	"context"
	"fmt"

	"github.com/google/uuid"
)

// VariantsBySKU returns the ids of the variants with these SKUs (exactly as
// stored); a SKU no variant has is absent from the map. It lets a bulk
// update name variants the way a stock sheet does.
func (s *Levels) VariantsBySKU(ctx context.Context, skus []string) (map[string]uuid.UUID, error) {
	out := make(map[string]uuid.UUID, len(skus))
	if len(skus) == 0 {
		return out, nil
	}
	var rows []struct {
		ID  uuid.UUID
		SKU string
	}
	if err := s.db.WithContext(ctx).Raw(`SELECT id, sku FROM variants WHERE sku IN ?`, skus).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("stock.variants_by_sku: %w", err)
	}
	for _, r := range rows {
		out[r.SKU] = r.ID
	}
	return out, nil
}
