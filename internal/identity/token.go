package identity

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
)

// TokenType is the `type` claim of administrator access tokens; customer
// tokens carry "customer" and are refused here.
const TokenType = "admin"

// Claims are the access token's claims: sub, email, role, sessionId, type,
// exp, iat.
type Claims struct {
	Email     string `json:"email"`
	Role      string `json:"role"`
	SessionID string `json:"sessionId"`
	Type      string `json:"type"`
	jwt.RegisteredClaims
}

// signAccessToken returns an HS256 JWT for the admin's session.
func signAccessToken(secret []byte, adminID uuid.UUID, email, role string, sessionID uuid.UUID, now time.Time, ttl time.Duration) (string, error) {
	claims := Claims{
		Email: email, Role: role, SessionID: sessionID.String(), Type: TokenType,
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   adminID.String(),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(ttl)),
		},
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(secret)
}

var errBadToken = errors.New("identity: invalid access token")

// parseAccessToken verifies signature, algorithm (HS256 only: `none` and
// every other algorithm are refused by the key function and the parser),
// expiry and type.
func parseAccessToken(secret []byte, raw string) (*Claims, error) {
	var c Claims
	_, err := jwt.ParseWithClaims(raw, &c, func(t *jwt.Token) (any, error) {
		if t.Method != jwt.SigningMethodHS256 {
			return nil, errBadToken
		}
		return secret, nil
	}, jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithExpirationRequired(), jwt.WithIssuedAt())
	if err != nil || c.Type != TokenType {
		return nil, errBadToken
	}
	return &c, nil
}

// newRefreshToken returns "<sessionId>.<32 random bytes, base64url>" and the
// secret part, which is what gets hashed.
func newRefreshToken(sessionID uuid.UUID) (token, secret string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", err
	}
	secret = base64.RawURLEncoding.EncodeToString(b)
	return sessionID.String() + "." + secret, secret, nil
}

// splitRefreshToken parses "<sessionId>.<secret>".
func splitRefreshToken(token string) (uuid.UUID, string, bool) {
	id, secret, ok := strings.Cut(token, ".")
	if !ok || secret == "" || len(secret) > 100 {
		return uuid.Nil, "", false
	}
	sid, err := uuid.Parse(id)
	if err != nil {
		return uuid.Nil, "", false
	}
	return sid, secret, true
}
