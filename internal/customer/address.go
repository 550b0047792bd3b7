package customer

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Address types.
const (
	AddressShipping = "shipping"
	AddressBilling  = "billing"
)

// AddressTypes lists the address types.
var AddressTypes = []string{AddressShipping, AddressBilling}

var (
	indianPincode = regexp.MustCompile(`^[1-9][0-9]{5}$`)
	postalCode    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 -]{1,10}[A-Za-z0-9]$`)
)

// CheckAddress validates an address beyond its field lengths (checked by the
// handler): a known type, and a 6-digit PIN code for India, else a plausible
// postal code. field prefixes the names in errors ("address.pincode").
// Errors: VALIDATION_ERROR.
func CheckAddress(a *models.Address, field string) error {
	a.Type = strings.ToLower(strings.TrimSpace(a.Type))
	if a.Type == "" {
		a.Type = AddressShipping
	}
	if !slices.Contains(AddressTypes, a.Type) {
		return apperr.Invalid(field+"type", "must be one of: "+strings.Join(AddressTypes, ", "))
	}
	for _, f := range []*string{&a.Street, &a.City, &a.State, &a.Pincode, &a.District, &a.Country} {
		*f = strings.TrimSpace(*f)
	}
	switch strings.ToLower(a.Country) {
	case "india", "in", "ind", "bharat":
		if !indianPincode.MatchString(a.Pincode) {
			return apperr.Invalid(field+"pincode", "must be a 6-digit PIN code")
		}
	default:
		if !postalCode.MatchString(a.Pincode) {
			return apperr.Invalid(field+"pincode", "must be a postal code of 3 to 12 letters, digits, spaces or hyphens")
		}
	}
	return nil
}

// AddAddress saves an address for customerID. Errors: VALIDATION_ERROR.
func (s *Service) AddAddress(ctx context.Context, customerID uuid.UUID, a models.Address) (*models.CustomerAddress, error) {
	if err := CheckAddress(&a, ""); err != nil {
		return nil, err
	}
	row := &models.CustomerAddress{CustomerID: customerID, Type: a.Type, Street: a.Street, City: a.City,
		State: a.State, Pincode: a.Pincode, District: a.District, Country: a.Country}
	if err := s.db.WithContext(ctx).Create(row).Error; err != nil {
		return nil, database.Translate(err, "address")
	}
	return row, nil
}

// Addresses returns a page of customerID's addresses, newest first, and
// their count.
func (s *Service) Addresses(ctx context.Context, customerID uuid.UUID, w paging.Window) ([]models.CustomerAddress, int64, error) {
	limit, offset := w.Limit, w.Offset
	db := s.db.WithContext(ctx).Model(&models.CustomerAddress{}).Where("customer_id = ?", customerID)
	var total int64
	if err := db.Count(&total).Error; err != nil {
		return nil, 0, database.Translate(err, "address")
	}
	var out []models.CustomerAddress
	if err := db.Order("created_at DESC, id DESC").Limit(limit).Offset(offset).Find(&out).Error; err != nil {
		return nil, 0, database.Translate(err, "address")
	}
	return out, total, nil
}

// OwnAddress returns customerID's address id as a snapshot, in tx. Another
// customer's address is refused exactly like an unknown one, naming field.
// Errors: VALIDATION_ERROR.
func OwnAddress(tx *gorm.DB, customerID, id uuid.UUID, field string) (json.RawMessage, models.Address, error) {
	var row models.CustomerAddress
	err := tx.Take(&row, "id = ? AND customer_id = ?", id, customerID).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, models.Address{}, apperr.Invalid(field, "is not one of your addresses")
	}
	if err != nil {
		return nil, models.Address{}, database.Translate(err, "address")
	}
	a := AddressOf(row)
	raw, err := json.Marshal(a)
	return raw, a, err
}

// AddressOf returns a saved address as the snapshot stored on sessions and orders.
func AddressOf(row models.CustomerAddress) models.Address {
	return models.Address{Type: row.Type, Street: row.Street, City: row.City, State: row.State,
		Pincode: row.Pincode, District: row.District, Country: row.Country}
}
