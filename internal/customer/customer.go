// Package customer owns the shop's customers: storefront accounts
// (registration, login, access tokens, saved addresses; Service), the guest
// records made at checkout and their claim into an account with the order
// and claim emails (Claims), and the back office's view and changes (Admin).
package customer

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Settings configure the service.
type Settings struct {
	// JWTSecret signs customer tokens (CUSTOMER_JWT_SECRET); it differs from
	// the admin key, so neither kind of token verifies as the other.
	JWTSecret []byte
	// TokenTTL is the token lifetime (CUSTOMER_TOKEN_EXPIRES_IN).
	TokenTTL time.Duration
}

// Service is the customer account service.
type Service struct {
	db  *gorm.DB
	set Settings
	now func() time.Time
	// queue and log nudge the worker after a password reset request
	// (WithEmailQueue).
	queue tasks.Enqueuer
	log   *slog.Logger
}

// New returns the service on db.
func New(db *gorm.DB, set Settings) *Service {
	return &Service{db: db, set: set, now: func() time.Time { return time.Now().UTC() }}
}

// ErrUnauthenticated is the one answer to a missing, invalid or expired token
// and to a deactivated account, so a client learns nothing more.
var ErrUnauthenticated = apperr.New(apperr.Unauthorized, "authentication required")

// NormalizeEmail trims an email address and lower-cases it; the column is
// citext, so this only keeps stored values tidy.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// Get returns the customer with id. Errors: NOT_FOUND.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*models.Customer, error) {
	var c models.Customer
	if err := s.db.WithContext(ctx).Take(&c, "id = ?", id).Error; err != nil {
		return nil, database.Translate(err, "customer")
	}
	return &c, nil
}
