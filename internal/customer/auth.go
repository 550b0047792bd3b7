package customer

import (
	"context"
	"errors"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/password"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// RegisterInput is a new account.
type RegisterInput struct {
	Email    string
	Password string
	Name     string
	Phone    string
}

// Session is a signed-in customer and its token.
type Session struct {
	Customer *models.Customer
	Token    Token
}

// Register creates a regular (non-guest) account and signs it in. A guest
// record with the same email stays apart until claimed (claiming proves the
// email and moves its orders in). Errors: CONFLICT (an account has this
// email), FORBIDDEN (a deactivated customer has this email).
func (s *Service) Register(ctx context.Context, in RegisterInput) (*Session, error) {
	if err := RefuseDeactivated(s.db.WithContext(ctx), in.Email); err != nil {
		return nil, err
	}
	hash, err := password.Hash(in.Password)
	if err != nil {
		return nil, err
	}
	c := &models.Customer{Email: NormalizeEmail(in.Email), Name: in.Name, Phone: in.Phone,
		PasswordHash: &hash, IsActive: true}
	if err := CreateAccount(s.db.WithContext(ctx), c); err != nil {
		return nil, err
	}
	return s.signIn(c)
}

// CreateAccount inserts c as a regular account (is_guest false) inside tx.
// Errors: CONFLICT (an account has this email).
func CreateAccount(tx *gorm.DB, c *models.Customer) error {
	c.IsGuest = false
	// Checked first so the common case is not a logged constraint error; the
	// unique index still decides a race.
	exists, err := AccountExists(tx, c.Email)
	if err != nil {
		return database.Translate(err, "customer")
	}
	if exists {
		return errEmailTaken
	}
	if err := tx.Create(c).Error; err != nil {
		if database.IsUnique(err) {
			return errEmailTaken
		}
		return database.Translate(err, "customer")
	}
	return nil
}

// Login checks an email and password. Errors: UNAUTHORIZED (one answer for
// an unknown email, a wrong password, a guest record and a deactivated
// account).
func (s *Service) Login(ctx context.Context, email, pw string) (*Session, error) {
	var c models.Customer
	err := s.db.WithContext(ctx).Take(&c, "email = ? AND NOT is_guest", NormalizeEmail(email)).Error
	if err != nil {
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, database.Translate(err, "customer")
		}
		password.DummyVerify(pw)
		return nil, errBadCredentials
	}
	if c.PasswordHash == nil {
		password.DummyVerify(pw)
		return nil, errBadCredentials
	}
	rehash, err := password.Verify(pw, *c.PasswordHash)
	if err != nil || !c.IsActive {
		return nil, errBadCredentials
	}
	if rehash {
		if h, err := password.Hash(pw); err == nil {
			s.db.WithContext(ctx).Model(&c).Update("password_hash", h)
		}
	}
	return s.signIn(&c)
}

var errEmailTaken = apperr.New(apperr.Conflict, "an account with this email already exists").
	WithDetails(map[string]any{"field": "email", "issue": "already registered"})

var errBadCredentials = apperr.New(apperr.Unauthorized, "invalid email or password")

func (s *Service) signIn(c *models.Customer) (*Session, error) {
	tok, err := s.issue(c.ID, c.Email, c.TokenVersion)
	if err != nil {
		return nil, err
	}
	return &Session{Customer: c, Token: tok}, nil
}

// Authenticate resolves a bearer token to its customer, loaded afresh so
// that deactivating an account, and a password reset or change (a new
// token version), end its tokens at once. Errors: UNAUTHORIZED.
func (s *Service) Authenticate(ctx context.Context, token string) (*models.Customer, error) {
	id, version, err := s.parse(token)
	if err != nil {
		return nil, ErrUnauthenticated
	}
	var c models.Customer
	if err := s.db.WithContext(ctx).Take(&c, "id = ?", id).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, ErrUnauthenticated
		}
		return nil, database.Translate(err, "customer")
	}
	if !c.IsActive || c.IsGuest || c.TokenVersion != version {
		return nil, ErrUnauthenticated
	}
	return &c, nil
}
