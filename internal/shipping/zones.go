package shipping

import (
	"context"
	"slices"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/internal/region"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// ZoneInput is a new zone. Name is checked by the handler.
type ZoneInput struct {
	Name      string
	States    []string
	IsDefault bool
}

// ZonePatch changes the fields present; States replaces the zone's states.
type ZonePatch struct {
	Name      patch.Field[string]
	States    patch.Field[[]string]
	IsDefault patch.Field[bool]
}

// CreateZone adds a zone with its states. Errors: VALIDATION_ERROR (a state
// that is not a state or union territory of India), CONFLICT (a state in
// another zone, with details.state; a second default zone).
func (s *Service) CreateZone(ctx context.Context, in ZoneInput) (*models.ShippingZone, error) {
	if id, ok := idempotency.RecordedRow(ctx); ok {
		return s.Zone(ctx, id)
	}
	states, err := canonicalStates(in.States)
	if err != nil {
		return nil, err
	}
	z := &models.ShippingZone{ID: uuid.New(), Name: in.Name, IsDefault: in.IsDefault}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(z).Error; err != nil {
			return zoneWriteError(err)
		}
		if err := claimStates(tx, z.ID, states); err != nil {
			return err
		}
		return idempotency.RecordRow(ctx, tx, z.ID)
	})
	if err != nil {
		return nil, database.Translate(err, resZone)
	}
	return s.Zone(ctx, z.ID)
}

// UpdateZone changes a zone. Errors: NOT_FOUND, VALIDATION_ERROR, CONFLICT
// (as CreateZone).
func (s *Service) UpdateZone(ctx context.Context, id uuid.UUID, p ZonePatch) (*models.ShippingZone, error) {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return s.Zone(ctx, id)
	}
	var states []string
	if v, ok := p.States.Get(); ok {
		var err error
		if states, err = canonicalStates(v); err != nil {
			return nil, err
		}
	} else if p.States.IsNull() {
		states = []string{}
	}
	changes := map[string]any{"updated_at": gorm.Expr("now()")}
	if v, ok := p.Name.Get(); ok {
		changes["name"] = v
	}
	if v, ok := p.IsDefault.Get(); ok {
		changes["is_default"] = v
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&models.ShippingZone{}).Where("id = ?", id).Updates(changes)
		if res.Error != nil {
			return zoneWriteError(res.Error)
		}
		if res.RowsAffected == 0 {
			return apperr.Missing(resZone)
		}
		if err := idempotency.RecordRow(ctx, tx, id); err != nil {
			return err
		}
		if states == nil {
			return nil
		}
		if err := tx.Exec(`DELETE FROM shipping_zone_states WHERE zone_id = ?`, id).Error; err != nil {
			return wrap("zone_states", err)
		}
		return claimStates(tx, id, states)
	})
	if err != nil {
		return nil, database.Translate(err, resZone)
	}
	return s.Zone(ctx, id)
}

// DeleteZone removes a zone and its methods. Orders keep the method they
// recorded. A keyed retry of a delete that committed answers as it did.
// Errors: NOT_FOUND.
func (s *Service) DeleteZone(ctx context.Context, id uuid.UUID) error {
	return s.deleteRow(ctx, &models.ShippingZone{}, id, resZone)
}

// Zone returns a zone with its states and every method, active or not.
// Errors: NOT_FOUND.
func (s *Service) Zone(ctx context.Context, id uuid.UUID) (*models.ShippingZone, error) {
	var z models.ShippingZone
	db := s.db.WithContext(ctx)
	if err := db.Take(&z, "id = ?", id).Error; err != nil {
		return nil, database.Translate(err, resZone)
	}
	zones := []models.ShippingZone{z}
	if err := fillZones(db, zones); err != nil {
		return nil, err
	}
	return &zones[0], nil
}

// Zones returns a page of zones, newest first, with their states and
// methods, and the number of zones.
func (s *Service) Zones(ctx context.Context, w paging.Window) ([]models.ShippingZone, int64, error) {
	limit, offset := w.Limit, w.Offset
	db := s.db.WithContext(ctx)
	var total int64
	if err := db.Model(&models.ShippingZone{}).Count(&total).Error; err != nil {
		return nil, 0, database.Translate(err, resZone)
	}
	var zones []models.ShippingZone
	if err := db.Order("created_at DESC, id DESC").Limit(limit).Offset(offset).Find(&zones).Error; err != nil {
		return nil, 0, database.Translate(err, resZone)
	}
	return zones, total, fillZones(db, zones)
}

// fillZones loads the states and methods of zones in two queries.
func fillZones(db *gorm.DB, zones []models.ShippingZone) error {
	if len(zones) == 0 {
		return nil
	}
	ids := make([]uuid.UUID, len(zones))
	at := make(map[uuid.UUID]*models.ShippingZone, len(zones))
	for i := range zones {
		ids[i], at[zones[i].ID] = zones[i].ID, &zones[i]
		zones[i].States, zones[i].Methods = []string{}, []models.ShippingMethod{}
	}
	var states []models.ShippingZoneState
	if err := db.Where("zone_id IN ?", ids).Order("state").Find(&states).Error; err != nil {
		return wrap("zone_states", err)
	}
	for _, st := range states {
		at[st.ZoneID].States = append(at[st.ZoneID].States, st.State)
	}
	var methods []models.ShippingMethod
	if err := db.Where("zone_id IN ?", ids).Order("price, name, id").Find(&methods).Error; err != nil {
		return wrap("zone_methods", err)
	}
	for _, m := range methods {
		at[m.ZoneID].Methods = append(at[m.ZoneID].Methods, m)
	}
	return nil
}

// canonicalStates returns states by their listed names, without repeats.
// Errors: VALIDATION_ERROR naming the first unknown state.
func canonicalStates(in []string) ([]string, error) {
	out := make([]string, 0, len(in))
	for _, s := range in {
		name, ok := region.Canonical(s)
		if !ok {
			return nil, apperr.New(apperr.Validation, "not a state or union territory of India: "+s).
				WithDetails(map[string]any{"field": "states", "issue": "is not a state or union territory of India", "state": s})
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out, nil
}

// claimStates puts states in zone zoneID. A state another zone holds is not
// taken (ON CONFLICT DO NOTHING waits for a concurrent claimer to finish),
// and the first one missing is the conflict. Errors: CONFLICT.
func claimStates(tx *gorm.DB, zoneID uuid.UUID, states []string) error {
	if len(states) == 0 {
		return nil
	}
	var claimed []string
	err := tx.Raw(`INSERT INTO shipping_zone_states (state, zone_id) SELECT s, ? FROM unnest(?::text[]) AS s
		ON CONFLICT (state) DO NOTHING RETURNING state`, zoneID, models.StringArray(states)).Scan(&claimed).Error
	if err != nil {
		return wrap("claim_states", err)
	}
	for _, st := range states {
		if !slices.Contains(claimed, st) {
			return stateTaken(st)
		}
	}
	return nil
}

// zoneWriteError maps the one-default index to its conflict.
func zoneWriteError(err error) error {
	if database.IsUnique(err) && database.Constraint(err) == "shipping_zones_one_default" {
		return defaultTaken(err)
	}
	return wrap("zone", err)
}
