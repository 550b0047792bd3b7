package cod

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"gorm.io/gorm/clause"
)

// ColumnMapping names the columns of a courier's remittance file that hold
// the order number, the amount and the reference (the UTR); Reference may
// be empty (no such column). Shiprocket's file, for one, is "Order ID",
// "COD Amount" and "UTR No".
type ColumnMapping struct {
	OrderNumber string `json:"orderNumber"`
	Amount      string `json:"amount"`
	Reference   string `json:"reference"`
}

// DefaultMapping is the file's own columns when none is given.
var DefaultMapping = ColumnMapping{OrderNumber: "orderNumber", Amount: "amount", Reference: "reference"}

// SavedMapping is a courier's mapping as kept.
type SavedMapping struct {
	Courier   string        `json:"courier"`
	Mapping   ColumnMapping `json:"mapping"`
	UpdatedAt time.Time     `json:"updatedAt"`
}

type mappingRow struct {
	CourierKey  string `gorm:"primaryKey"`
	Courier     string
	OrderNumber string
	Amount      string
	Reference   string
	UpdatedAt   time.Time
}

func (mappingRow) TableName() string { return "cod_remittance_mappings" }

// maxCourierName and maxColumnName bound what staff type.
const (
	maxCourierName = 60
	maxColumnName  = 100
)

// CheckCourier trims a courier's name. Errors: VALIDATION_ERROR naming
// field.
func CheckCourier(field, name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > maxCourierName {
		return "", apperr.Invalid(field, fmt.Sprintf("must be 1 to %d characters", maxCourierName))
	}
	return name, nil
}

// Check trims m's names and checks them: orderNumber and amount are
// required, all at most 100 characters, no column named twice. Errors:
// VALIDATION_ERROR naming field.member.
func (m ColumnMapping) Check(field string) (ColumnMapping, error) {
	m = ColumnMapping{OrderNumber: strings.TrimSpace(m.OrderNumber), Amount: strings.TrimSpace(m.Amount), Reference: strings.TrimSpace(m.Reference)}
	for _, c := range []struct {
		name, value string
		required    bool
	}{{"orderNumber", m.OrderNumber, true}, {"amount", m.Amount, true}, {"reference", m.Reference, false}} {
		if (c.required && c.value == "") || len(c.value) > maxColumnName {
			return m, apperr.Invalid(field+"."+c.name, fmt.Sprintf("must name a column of the file (at most %d characters)", maxColumnName))
		}
	}
	if strings.EqualFold(m.OrderNumber, m.Amount) || (m.Reference != "" &&
		(strings.EqualFold(m.Reference, m.OrderNumber) || strings.EqualFold(m.Reference, m.Amount))) {
		return m, apperr.Invalid(field, "must name a different column for each of orderNumber, amount and reference")
	}
	return m, nil
}

// SaveMapping keeps m as courier's mapping, replacing an earlier one.
func (s *Remittances) SaveMapping(ctx context.Context, courier string, m ColumnMapping) error {
	row := mappingRow{CourierKey: strings.ToLower(courier), Courier: courier, OrderNumber: m.OrderNumber, Amount: m.Amount,
		Reference: m.Reference, UpdatedAt: time.Now().UTC()}
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "courier_key"}},
		DoUpdates: clause.AssignmentColumns([]string{"courier", "order_number", "amount", "reference", "updated_at"})}).Create(&row).Error
	return database.Translate(err, "remittance mapping")
}

// MappingOf returns courier's saved mapping. Errors: VALIDATION_ERROR
// naming courier when none is saved.
func (s *Remittances) MappingOf(ctx context.Context, courier string) (ColumnMapping, error) {
	var rows []mappingRow
	if err := s.db.WithContext(ctx).Where("courier_key = ?", strings.ToLower(courier)).Limit(1).Find(&rows).Error; err != nil {
		return ColumnMapping{}, fmt.Errorf("cod.mapping: %w", err)
	}
	if len(rows) == 0 {
		return ColumnMapping{}, apperr.Invalid("courier", "has no saved column mapping: send mapping with the file")
	}
	return ColumnMapping{OrderNumber: rows[0].OrderNumber, Amount: rows[0].Amount, Reference: rows[0].Reference}, nil
}

// Mappings lists the saved mappings by courier name.
func (s *Remittances) Mappings(ctx context.Context) ([]SavedMapping, error) {
	var rows []mappingRow
	if err := s.db.WithContext(ctx).Order("courier_key").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("cod.mappings: %w", err)
	}
	out := make([]SavedMapping, len(rows))
	for i, r := range rows {
		out[i] = SavedMapping{Courier: r.Courier, Mapping: ColumnMapping{OrderNumber: r.OrderNumber, Amount: r.Amount, Reference: r.Reference},
			UpdatedAt: r.UpdatedAt.UTC()}
	}
	return out, nil
}
