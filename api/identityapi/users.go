package identityapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/identity"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type createUserRequest struct {
	Email    string `json:"email" validate:"required"`
	Name     string `json:"name" validate:"max=200"`
	Password string `json:"password" validate:"required"`
	Role     string `json:"role" validate:"required"`
}

type updateUserRequest struct {
	Name     patch.Field[string] `json:"name"`
	Role     patch.Field[string] `json:"role"`
	IsActive patch.Field[bool]   `json:"isActive"`
}

type userResponse struct {
	ID               uuid.UUID `json:"id"`
	Email            string    `json:"email"`
	Name             string    `json:"name"`
	Role             string    `json:"role"`
	IsActive         bool      `json:"isActive"`
	TwoFactorEnabled bool      `json:"twoFactorEnabled"`
	LastLoginAt      *string   `json:"lastLoginAt"`
	CreatedAt        string    `json:"createdAt"`
	UpdatedAt        string    `json:"updatedAt"`
}

func toUser(a *identity.Account) userResponse {
	return userResponse{
		ID: a.ID, Email: a.Email, Name: a.Name, Role: a.Role, IsActive: a.IsActive,
		TwoFactorEnabled: a.TwoFactorEnabled, LastLoginAt: httpx.TimestampPtr(a.LastLoginAt),
		CreatedAt: httpx.Timestamp(a.CreatedAt), UpdatedAt: httpx.Timestamp(a.UpdatedAt),
	}
}

// createUser is POST /users (super_admin): 201 with the new admin.
func (h *handlers) createUser(c *fiber.Ctx) error {
	var req createUserRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := httpx.Enum("role", req.Role, rbac.RoleNames()...); err != nil {
		return err
	}
	a, err := h.users.Create(c.UserContext(), identity.CreateInput{Email: req.Email, Name: req.Name, Password: req.Password, Role: req.Role})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toUser(&identity.Account{Admin: *a}))
}

// listUsers is GET /users (super_admin): paged, newest first, filters
// `role` and `search` (email or name).
func (h *handlers) listUsers(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	role, err := httpx.QueryEnum(c, "role", rbac.RoleNames()...)
	if err != nil {
		return err
	}
	search, err := httpx.QuerySearch(c, "search")
	if err != nil {
		return err
	}
	f := identity.ListFilter{Role: role, Search: search}
	rows, total, err := h.users.List(c.UserContext(), f, page.Window())
	if err != nil {
		return err
	}
	data := make([]userResponse, len(rows))
	for i := range rows {
		data[i] = toUser(&rows[i])
	}
	return c.JSON(httpx.NewList(data, page, total))
}

// getUser is GET /users/:id (super_admin).
func (h *handlers) getUser(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "id", "admin")
	if err != nil {
		return err
	}
	a, err := h.users.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(toUser(a))
}

// updateUser is PATCH /users/:id (super_admin) {name, role, isActive}.
func (h *handlers) updateUser(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "id", "admin")
	if err != nil {
		return err
	}
	var req updateUserRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	a, err := h.users.Update(c.UserContext(), id, identity.UpdateInput{Name: req.Name, Role: req.Role, IsActive: req.IsActive})
	if err != nil {
		return err
	}
	return c.JSON(toUser(a))
}
