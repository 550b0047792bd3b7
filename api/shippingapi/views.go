package shippingapi

import (
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// methodView is a shipping method as answered (docs/openapi.yaml,
// ShippingMethod).
type methodView struct {
	ID        uuid.UUID     `json:"id"`
	ZoneID    uuid.UUID     `json:"zoneId"`
	Name      string        `json:"name"`
	Carrier   string        `json:"carrier"`
	Price     money.Amount  `json:"price"`
	FreeAbove *money.Amount `json:"freeAbove"`
	GSTRate   money.Rate    `json:"gstRate"`
	MinDays   int           `json:"minDays"`
	MaxDays   int           `json:"maxDays"`
	IsActive  bool          `json:"isActive"`
	CreatedAt time.Time     `json:"createdAt"`
	UpdatedAt time.Time     `json:"updatedAt"`
}

// zoneView is a zone with its states and methods (docs/openapi.yaml,
// ShippingZone).
type zoneView struct {
	ID        uuid.UUID    `json:"id"`
	Name      string       `json:"name"`
	States    []string     `json:"states"`
	IsDefault bool         `json:"isDefault"`
	Methods   []methodView `json:"methods"`
	CreatedAt time.Time    `json:"createdAt"`
	UpdatedAt time.Time    `json:"updatedAt"`
}

func newMethodView(m *models.ShippingMethod) methodView {
	return methodView{ID: m.ID, ZoneID: m.ZoneID, Name: m.Name, Carrier: m.Carrier, Price: m.Price,
		FreeAbove: m.FreeAbove, GSTRate: m.GSTRate, MinDays: m.MinDays, MaxDays: m.MaxDays, IsActive: m.IsActive,
		CreatedAt: m.CreatedAt.UTC(), UpdatedAt: m.UpdatedAt.UTC()}
}

func newZoneView(z *models.ShippingZone) zoneView {
	v := zoneView{ID: z.ID, Name: z.Name, States: z.States, IsDefault: z.IsDefault,
		Methods: make([]methodView, len(z.Methods)), CreatedAt: z.CreatedAt.UTC(), UpdatedAt: z.UpdatedAt.UTC()}
	if v.States == nil {
		v.States = []string{}
	}
	for i := range z.Methods {
		v.Methods[i] = newMethodView(&z.Methods[i])
	}
	return v
}
