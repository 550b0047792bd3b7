package admincustomerapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/patch"
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
		CreatedAt: httpx.Timestamp(c.CreatedAt), UpdatedAt: httpx.Timestamp(c.UpdatedAt)}
}

type detailView struct {
	customerView
	OrderCount int64        `json:"orderCount"`
	TotalSpent money.Amount `json:"totalSpent"`
	Currency   string       `json:"currency"`
}

func newDetailView(d *customer.Detail) detailView {
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
	rows, total, err := h.customers.List(c.UserContext(), search, page.Window())
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
	Name     patch.Field[string] `json:"name"`
	Phone    patch.Field[string] `json:"phone"`
	IsActive patch.Field[bool]   `json:"isActive"`
	// CustomerGroupID null removes the customer from its group.
	CustomerGroupID patch.Field[uuid.UUID] `json:"customerGroupId"`
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
	p := customer.Patch(req)
	d, err := h.customers.Update(c.UserContext(), id, p)
	if err != nil {
		return err
	}
	return c.JSON(newDetailView(d))
}
