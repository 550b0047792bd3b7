package identityapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/adminusers"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type createUserRequest struct {
	Email    string `json:"email" validate:"required"`
	Name     string `json:"name" validate:"max=200"`
	Password string `json:"password" validate:"required"`
	Role     string `json:"role" validate:"required,oneof=viewer staff admin super_admin"`
}

type updateUserRequest struct {
	Name     *string `json:"name" validate:"omitempty,max=200"`
	Role     *string `json:"role" validate:"omitempty,oneof=viewer staff admin super_admin"`
	IsActive *bool   `json:"isActive"`
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

func toUser(a *adminusers.Account) userResponse {
	return userResponse{
		ID: a.ID, Email: a.Email, Name: a.Name, Role: a.Role, IsActive: a.IsActive,
		TwoFactorEnabled: a.TwoFactorEnabled, LastLoginAt: isoPtr(a.LastLoginAt),
		CreatedAt: iso(a.CreatedAt), UpdatedAt: iso(a.UpdatedAt),
	}
}

// createUser is POST /users (super_admin): 201 with the new admin.
func (h *handlers) createUser(c *fiber.Ctx) error {
	var req createUserRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	a, err := h.users.Create(c.UserContext(), adminusers.CreateInput{Email: req.Email, Name: req.Name, Password: req.Password, Role: req.Role})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toUser(&adminusers.Account{Admin: *a}))
}

// listUsers is GET /users (super_admin): paged, newest first, filters
// `role` and `search` (email or name).
func (h *handlers) listUsers(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	role, err := httpx.QueryEnum(c, "role", "viewer", "staff", "admin", "super_admin")
	if err != nil {
		return err
	}
	search, err := httpx.QuerySearch(c, "search")
	if err != nil {
		return err
	}
	f := adminusers.ListFilter{Role: role}
	if search != "" {
		f.Search = httpx.LikePattern(search)
	}
	rows, total, err := h.users.List(c.UserContext(), f, page.Offset(), page.Limit)
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
	a, err := h.users.Update(c.UserContext(), id, adminusers.UpdateInput{Name: req.Name, Role: req.Role, IsActive: req.IsActive})
	if err != nil {
		return err
	}
	return c.JSON(toUser(a))
}
