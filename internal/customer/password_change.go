package customer

import (
	"context"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/password"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// errWrongCurrentPassword answers a change whose current password is wrong.
// It is a 400 on the field, not a 401: the session is fine, and a client
// told 401 would sign the customer out.
var errWrongCurrentPassword = apperr.Invalid("currentPassword", "is not the account's current password")

// ChangePassword sets newPassword on signed-in customer c after checking
// currentPassword. Like a reset, it ends every access token issued before
// (the customer's other sessions) and spends unused reset tokens; the
// caller gets a fresh token, so the session that changed the password goes
// on (docs/DECISIONS.md "Storefront basics"). Errors: VALIDATION_ERROR
// (currentPassword wrong), UNAUTHORIZED (a reset or another change of the
// account won the race: this session has ended).
func (s *Service) ChangePassword(ctx context.Context, c *models.Customer, currentPassword, newPassword string) (*Session, error) {
	if c.PasswordHash == nil {
		password.DummyVerify(currentPassword)
		return nil, errWrongCurrentPassword
	}
	if _, err := password.Verify(currentPassword, *c.PasswordHash); err != nil {
		return nil, errWrongCurrentPassword
	}
	hash, err := password.Hash(newPassword)
	if err != nil {
		return nil, err
	}
	var out models.Customer
	seen := c.TokenVersion
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return s.replacePassword(tx, c.ID, &seen, hash, false, &out)
	})
	if err != nil {
		return nil, database.Translate(err, "customer")
	}
	return s.signIn(&out)
}
