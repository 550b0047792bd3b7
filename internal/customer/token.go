package customer

import (
	"errors"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
)

// TokenType is the `type` claim of customer tokens; admin tokens carry
// "admin" and are refused here, as customer tokens are on admin routes.
const TokenType = "customer"

// tokenClaims are a customer token's claims: sub, email, type, ver, iat,
// exp. Version is the customer's token_version when the token was issued
// (absent: 0); Authenticate refuses a token whose version is not current.
type tokenClaims struct {
	Email   string `json:"email"`
	Type    string `json:"type"`
	Version int    `json:"ver,omitempty"`
	jwt.RegisteredClaims
}

// Token is an issued customer access token.
type Token struct {
	AccessToken string
	ExpiresIn   int
}

func (s *Service) issue(id uuid.UUID, email string, version int) (Token, error) {
	now := s.now()
	claims := tokenClaims{Email: email, Type: TokenType, Version: version, RegisteredClaims: jwt.RegisteredClaims{
		Subject:   id.String(),
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(s.set.TokenTTL)),
	}}
	raw, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.set.JWTSecret)
	if err != nil {
		return Token{}, err
	}
	return Token{AccessToken: raw, ExpiresIn: int(s.set.TokenTTL / time.Second)}, nil
}

var errBadToken = errors.New("customer: invalid token")

// parse verifies the signature (HS256 only: `none` and every other algorithm
// are refused), expiry and type, and returns the customer id and the token
// version.
func (s *Service) parse(raw string) (uuid.UUID, int, error) {
	var c tokenClaims
	_, err := jwt.ParseWithClaims(raw, &c, func(t *jwt.Token) (any, error) {
		if t.Method != jwt.SigningMethodHS256 {
			return nil, errBadToken
		}
		return s.set.JWTSecret, nil
	}, jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithExpirationRequired(), jwt.WithIssuedAt())
	if err != nil || c.Type != TokenType {
		return uuid.Nil, 0, errBadToken
	}
	id, err := uuid.Parse(c.Subject)
	if err != nil {
		return uuid.Nil, 0, errBadToken
	}
	return id, c.Version, nil
}
