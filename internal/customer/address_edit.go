package customer

import (
	"context"
	"errors"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// AddressPatch is a partial update of a saved address. District may be
// null (cleared); the other fields, when present, carry a value (the
// handler checks their lengths as for a new address).
type AddressPatch struct {
	Type     patch.Field[string]
	Street   patch.Field[string]
	City     patch.Field[string]
	State    patch.Field[string]
	Pincode  patch.Field[string]
	District patch.Field[string]
	Country  patch.Field[string]
}

// errAddressNotFound answers another customer's address exactly like an
// unknown one.
var errAddressNotFound = apperr.Missing("address")

// UpdateAddress applies p to customerID's address id and checks the result
// as a new address is checked (a new country re-checks the postal code).
// Orders and checkout sessions keep the address they were placed with: they
// hold a copy, never a reference. Errors: NOT_FOUND (unknown, or another
// customer's), VALIDATION_ERROR.
func (s *Service) UpdateAddress(ctx context.Context, customerID, id uuid.UUID, p AddressPatch) (*models.CustomerAddress, error) {
	if err := firstError(patch.NotNull("type", p.Type), patch.NotNull("street", p.Street), patch.NotNull("city", p.City),
		patch.NotNull("state", p.State), patch.NotNull("pincode", p.Pincode), patch.NotNull("country", p.Country)); err != nil {
		return nil, err
	}
	var row models.CustomerAddress
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&row, "id = ? AND customer_id = ?", id, customerID).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return errAddressNotFound
		}
		if err != nil {
			return err
		}
		a := AddressOf(row)
		for _, f := range []struct {
			in  patch.Field[string]
			dst *string
		}{{p.Type, &a.Type}, {p.Street, &a.Street}, {p.City, &a.City}, {p.State, &a.State},
			{p.Pincode, &a.Pincode}, {p.Country, &a.Country}} {
			f.in.ApplyTo(f.dst)
		}
		if p.District.Present() {
			a.District, _ = p.District.Get()
		}
		if err := CheckAddress(&a, ""); err != nil {
			return err
		}
		row.Type, row.Street, row.City, row.State, row.Pincode, row.District, row.Country =
			a.Type, a.Street, a.City, a.State, a.Pincode, a.District, a.Country
		row.UpdatedAt = s.now()
		return tx.Model(&row).Select("type", "street", "city", "state", "pincode", "district", "country", "updated_at").
			Updates(&row).Error
	})
	if err != nil {
		return nil, database.Translate(err, "address")
	}
	return &row, nil
}

// DeleteAddress deletes customerID's address id; orders placed with it keep
// their copy. Errors: NOT_FOUND (unknown, or another customer's).
func (s *Service) DeleteAddress(ctx context.Context, customerID, id uuid.UUID) error {
	res := s.db.WithContext(ctx).Where("id = ? AND customer_id = ?", id, customerID).Delete(&models.CustomerAddress{})
	if res.Error != nil {
		return database.Translate(res.Error, "address")
	}
	if res.RowsAffected == 0 {
		return errAddressNotFound
	}
	return nil
}

// firstError returns the first non-nil error.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
