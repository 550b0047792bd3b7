package shipping

import (
	"context"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// DefaultGSTRate is a method's GST rate when none is given: 18 %, the rate
// of courier services.
const DefaultGSTRate money.Rate = 1800

// maxDays bounds a delivery estimate.
const maxDays = 365

// MethodInput is a new method. Name and Carrier are checked by the handler;
// GSTRate nil is DefaultGSTRate, IsActive nil is true.
type MethodInput struct {
	Name      string
	Carrier   string
	Price     money.Amount
	FreeAbove *money.Amount
	GSTRate   *money.Rate
	MinDays   int
	MaxDays   int
	IsActive  *bool
}

// MethodPatch changes the fields present; FreeAbove null clears it.
type MethodPatch struct {
	Name      patch.Field[string]
	Carrier   patch.Field[string]
	Price     patch.Field[money.Amount]
	FreeAbove patch.Field[money.Amount]
	GSTRate   patch.Field[money.Rate]
	MinDays   patch.Field[int]
	MaxDays   patch.Field[int]
	IsActive  patch.Field[bool]
}

// CreateMethod adds a method to zone zoneID. Errors: NOT_FOUND (zone),
// VALIDATION_ERROR (price, freeAbove, gstRate, minDays, maxDays).
func (s *Service) CreateMethod(ctx context.Context, zoneID uuid.UUID, in MethodInput) (*models.ShippingMethod, error) {
	if id, ok := idempotency.RecordedRow(ctx); ok {
		return s.Method(ctx, id)
	}
	m := &models.ShippingMethod{ID: uuid.New(), ZoneID: zoneID, Name: in.Name, Carrier: in.Carrier, Price: in.Price,
		FreeAbove: in.FreeAbove, GSTRate: DefaultGSTRate, MinDays: in.MinDays, MaxDays: in.MaxDays, IsActive: true}
	if in.GSTRate != nil {
		m.GSTRate = *in.GSTRate
	}
	if in.IsActive != nil {
		m.IsActive = *in.IsActive
	}
	if err := checkMethod(m); err != nil {
		return nil, err
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		// The zone row is locked so that a concurrent delete cannot leave
		// the insert failing on its foreign key as a 500.
		var found int64
		if err := tx.Raw(`SELECT 1 FROM shipping_zones WHERE id = ? FOR SHARE`, zoneID).Scan(&found).Error; err != nil {
			return wrap("method_zone", err)
		}
		if found == 0 {
			return apperr.Missing(resZone)
		}
		if err := tx.Create(m).Error; err != nil {
			return wrap("create_method", err)
		}
		return idempotency.RecordRow(ctx, tx, m.ID)
	})
	if err != nil {
		return nil, database.Translate(err, resMethod)
	}
	return s.Method(ctx, m.ID)
}

// UpdateMethod changes a method; the rules apply to the result (maxDays ≥
// minDays whichever of them changed). Errors: NOT_FOUND, VALIDATION_ERROR.
func (s *Service) UpdateMethod(ctx context.Context, id uuid.UUID, p MethodPatch) (*models.ShippingMethod, error) {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return s.Method(ctx, id)
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var m models.ShippingMethod
		if err := tx.Raw(`SELECT * FROM shipping_methods WHERE id = ? FOR UPDATE`, id).Scan(&m).Error; err != nil {
			return wrap("method", err)
		}
		if m.ID == uuid.Nil {
			return apperr.Missing(resMethod)
		}
		applyMethodPatch(&m, p)
		if err := checkMethod(&m); err != nil {
			return err
		}
		if err := tx.Model(&models.ShippingMethod{}).Where("id = ?", id).Updates(map[string]any{
			"name": m.Name, "carrier": m.Carrier, "price": m.Price, "free_above": m.FreeAbove, "gst_rate": m.GSTRate,
			"min_days": m.MinDays, "max_days": m.MaxDays, "is_active": m.IsActive, "updated_at": gorm.Expr("now()"),
		}).Error; err != nil {
			return wrap("update_method", err)
		}
		return idempotency.RecordRow(ctx, tx, id)
	})
	if err != nil {
		return nil, database.Translate(err, resMethod)
	}
	return s.Method(ctx, id)
}

func applyMethodPatch(m *models.ShippingMethod, p MethodPatch) {
	p.Name.ApplyTo(&m.Name)
	p.Carrier.ApplyTo(&m.Carrier)
	p.Price.ApplyTo(&m.Price)
	if p.FreeAbove.Present() {
		m.FreeAbove = p.FreeAbove.Ptr()
	}
	p.GSTRate.ApplyTo(&m.GSTRate)
	p.MinDays.ApplyTo(&m.MinDays)
	p.MaxDays.ApplyTo(&m.MaxDays)
	p.IsActive.ApplyTo(&m.IsActive)
}

// DeleteMethod removes a method. A keyed retry of a delete that committed
// answers as it did. Errors: NOT_FOUND.
func (s *Service) DeleteMethod(ctx context.Context, id uuid.UUID) error {
	return s.deleteRow(ctx, &models.ShippingMethod{}, id, resMethod)
}

// Method returns a method. Errors: NOT_FOUND.
func (s *Service) Method(ctx context.Context, id uuid.UUID) (*models.ShippingMethod, error) {
	var m models.ShippingMethod
	if err := s.db.WithContext(ctx).Take(&m, "id = ?", id).Error; err != nil {
		return nil, database.Translate(err, resMethod)
	}
	return &m, nil
}

// checkMethod applies the rules of docs/DECISIONS.md "Shipping" to a method as it would
// be stored. Errors: VALIDATION_ERROR naming the field.
func checkMethod(m *models.ShippingMethod) error {
	switch {
	case m.Price < 0:
		return apperr.Invalid("price", "must be 0 or more")
	case m.FreeAbove != nil && *m.FreeAbove < 0:
		return apperr.Invalid("freeAbove", "must be 0 or more")
	case m.MinDays < 0 || m.MinDays > maxDays:
		return apperr.Invalid("minDays", "must be 0 to 365")
	case m.MaxDays < m.MinDays || m.MaxDays > maxDays:
		return apperr.Invalid("maxDays", "must be minDays to 365")
	}
	return catalog.CheckGSTRate(m.GSTRate)
}
