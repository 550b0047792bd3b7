package customerapi

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/customeradmin"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type customerView struct {
	ID              string     `json:"id"`
	Email           string     `json:"email"`
	Name            string     `json:"name"`
	Phone           string     `json:"phone"`
	IsActive        bool       `json:"isActive"`
	IsGuest         bool       `json:"isGuest"`
	EmailVerified   bool       `json:"emailVerified"`
	CustomerGroupID *uuid.UUID `json:"customerGroupId"`
	CreatedAt       string     `json:"createdAt"`
	UpdatedAt       string     `json:"updatedAt"`
}

func newCustomerView(c models.Customer) customerView {
	return customerView{ID: c.ID.String(), Email: c.Email, Name: c.Name, Phone: c.Phone, IsActive: c.IsActive,
		IsGuest: c.IsGuest, EmailVerified: c.EmailVerified, CustomerGroupID: c.CustomerGroupID,
		CreatedAt: c.CreatedAt.UTC().Format(time.RFC3339), UpdatedAt: c.UpdatedAt.UTC().Format(time.RFC3339)}
}

type detailView struct {
	customerView
	OrderCount int64        `json:"orderCount"`
	TotalSpent money.Amount `json:"totalSpent"`
	Currency   string       `json:"currency"`
}

func newDetailView(d *customeradmin.Detail) detailView {
	return detailView{customerView: newCustomerView(d.Customer), OrderCount: d.OrderCount, TotalSpent: d.TotalSpent, Currency: d.Currency}
}

// list answers GET /admin/customers: page, limit, search.
func (h *handlers) list(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	search, err := httpx.QuerySearch(c, "search")
	if err != nil {
		return err
	}
	rows, total, err := h.customers.List(c.UserContext(), search, page.Page, page.Limit)
	if err != nil {
		return err
	}
	views := make([]customerView, len(rows))
	for i, r := range rows {
		views[i] = newCustomerView(r)
	}
	return c.JSON(httpx.NewList(views, page, total))
}

// get answers GET /admin/customers/{customerId}.
func (h *handlers) get(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "customerId", "customer")
	if err != nil {
		return err
	}
	d, err := h.customers.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(newDetailView(d))
}

type updateRequest struct {
	Name     *string `json:"name" validate:"omitnil,notblank,max=255"`
	Phone    *string `json:"phone" validate:"omitnil,max=20"`
	IsActive *bool   `json:"isActive"`
	// CustomerGroupID is read from the raw body: null removes the group.
	CustomerGroupID json.RawMessage `json:"customerGroupId"`
}

// update answers PATCH /admin/customers/{customerId} with the customer.
func (h *handlers) update(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "customerId", "customer")
	if err != nil {
		return err
	}
	var req updateRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	p := customeradmin.Patch{Name: req.Name, Phone: req.Phone, IsActive: req.IsActive}
	if req.Phone != nil && *req.Phone != "" && !phonePattern.MatchString(*req.Phone) {
		return apperr.Invalid("phone", "must be a phone number of 7 to 20 digits, spaces, hyphens or parentheses, optionally starting with +")
	}
	if raw := bytes.TrimSpace(req.CustomerGroupID); len(raw) > 0 {
		p.SetGroup = true
		if !bytes.Equal(raw, []byte("null")) {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				return apperr.Invalid("customerGroupId", "must be a UUID or null")
			}
			gid, err := uuid.Parse(s)
			if err != nil {
				return apperr.Invalid("customerGroupId", "must be a UUID or null")
			}
			p.CustomerGroupID = &gid
		}
	}
	d, err := h.customers.Update(c.UserContext(), id, p)
	if err != nil {
		return err
	}
	return c.JSON(newDetailView(d))
}
