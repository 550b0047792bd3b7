package identityapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/identity"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type loginRequest struct {
	Email    string `json:"email" validate:"required,max=254"`
	Password string `json:"password" validate:"required,max=256"`
	DeviceID string `json:"deviceId" validate:"max=200"`
}

// adminSummary is the admin part of a login answer.
type adminSummary struct {
	ID    uuid.UUID `json:"id"`
	Email string    `json:"email"`
	Name  string    `json:"name"`
	Role  string    `json:"role"`
}

// tokenResponse answers a completed login or a refresh.
type tokenResponse struct {
	AccessToken string       `json:"access_token"`
	TokenType   string       `json:"token_type"`
	ExpiresIn   int          `json:"expires_in"`
	Admin       adminSummary `json:"admin"`
}

// challengeResponse answers the password step of a 2FA login.
type challengeResponse struct {
	Requires2FA    bool   `json:"requires2FA"`
	TwoFactorToken string `json:"twoFactorToken"`
	ExpiresIn      int    `json:"expires_in"`
}

// login is POST /auth/login: rate limited per client IP before anything
// else, so malformed and failed attempts count too.
func (h *handlers) login(c *fiber.Ctx) error {
	if err := h.limit(c, loginBucket(c)); err != nil {
		return err
	}
	var req loginRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	res, err := h.auth.Login(c.UserContext(), req.Email, req.Password, clientInfo(c, req.DeviceID))
	if err != nil {
		return err
	}
	return h.sendLogin(c, res)
}

// sendLogin answers a login step: the 2FA challenge (no cookies), or the
// tokens in the body and in cookies.
func (h *handlers) sendLogin(c *fiber.Ctx, res *identity.LoginResult) error {
	noStore(c)
	if res.Challenge != nil {
		return c.JSON(challengeResponse{Requires2FA: true, TwoFactorToken: res.Challenge.Token, ExpiresIn: res.Challenge.ExpiresIn})
	}
	h.setAuthCookies(c, res.Tokens)
	a := res.Admin
	return c.JSON(tokenResponse{
		AccessToken: res.Tokens.AccessToken, TokenType: "Bearer", ExpiresIn: res.Tokens.ExpiresIn,
		Admin: adminSummary{ID: a.ID, Email: a.Email, Name: a.Name, Role: a.Role},
	})
}
