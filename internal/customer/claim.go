package customer

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/mail"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// ClaimSettings configure Claims.
type ClaimSettings struct {
	// TokenTTL is a claim token's lifetime (CLAIM_TOKEN_TTL, 48 h).
	TokenTTL time.Duration
	// PublicURL is the storefront's address, for links in emails.
	PublicURL string
	// AppName signs the emails.
	AppName string
}

// Claims lets a guest turn its guest record into an account: the emails
// sent after a guest's order (and on request) carry a single-use claim
// token; presenting it with the email and a new password sets the password.
// It also sends every order's confirmation email, and the notice that a
// second payment for an already paid cart was refunded.
type Claims struct {
	db     *gorm.DB
	sender mail.Sender
	set    ClaimSettings
	log    *slog.Logger
	now    func() time.Time
}

// NewClaims returns the claim service. sender may be nil for a service that only
// redeems tokens (the API).
func NewClaims(db *gorm.DB, sender mail.Sender, set ClaimSettings, log *slog.Logger) *Claims {
	return &Claims{db: db, sender: sender, set: set, log: log, now: func() time.Time { return time.Now().UTC() }}
}

// hashToken is the stored form of a token: 32 random bytes need no slow
// hash, and SHA-256 lets the lookup be one indexed equality.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// issue stores a new token for customerID and returns it; only its hash is
// kept.
func (s *Claims) issue(tx *gorm.DB, customerID uuid.UUID) (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	err := tx.Exec(`INSERT INTO claim_tokens (customer_id, token_hash, expires_at) VALUES (?, ?, ?)`,
		customerID, hashToken(token), s.now().Add(s.set.TokenTTL)).Error
	if err != nil {
		return "", fmt.Errorf("customer.claim_issue: %w", err)
	}
	return token, nil
}
