package storeapi

import (
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// customerBody is a customer as answered.
type customerBody struct {
	ID              uuid.UUID  `json:"id"`
	Email           string     `json:"email"`
	Name            string     `json:"name"`
	Phone           string     `json:"phone"`
	IsActive        bool       `json:"isActive"`
	IsGuest         bool       `json:"isGuest"`
	EmailVerified   bool       `json:"emailVerified"`
	CustomerGroupID *uuid.UUID `json:"customerGroupId"`
	CreatedAt       time.Time  `json:"createdAt"`
}

func toCustomer(c *models.Customer) customerBody {
	return customerBody{ID: c.ID, Email: c.Email, Name: c.Name, Phone: c.Phone, IsActive: c.IsActive, IsGuest: c.IsGuest,
		EmailVerified: c.EmailVerified, CustomerGroupID: c.CustomerGroupID, CreatedAt: c.CreatedAt.UTC()}
}

// sessionBody answers register and login.
type sessionBody struct {
	Customer    customerBody `json:"customer"`
	AccessToken string       `json:"access_token"`
	TokenType   string       `json:"token_type"`
	ExpiresIn   int          `json:"expires_in"`
}

func toSession(s *customer.Session) sessionBody {
	return sessionBody{Customer: toCustomer(s.Customer), AccessToken: s.Token.AccessToken, TokenType: "Bearer", ExpiresIn: s.Token.ExpiresIn}
}

type registerRequest struct {
	Email    string `json:"email" validate:"required,max=254,email"`
	Password string `json:"password" validate:"required,min=8,max=256"`
	Name     string `json:"name" validate:"required,notblank,max=200"`
	Phone    string `json:"phone" validate:"max=20"`
}

// register: POST /customers/register → 201 {customer, access_token,
// token_type, expires_in}. Errors: VALIDATION_ERROR, CONFLICT, RATE_LIMITED,
// FORBIDDEN (the email of a deactivated customer).
func (h *handlers) register(c *fiber.Ctx) error {
	var req registerRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := customer.CheckPhone("phone", req.Phone, false); err != nil {
		return err
	}
	if err := h.limitAuth(c, "register"); err != nil {
		return err
	}
	s, err := h.customers.Register(c.UserContext(), customer.RegisterInput{Email: req.Email, Password: req.Password, Name: req.Name, Phone: req.Phone})
	if err != nil {
		return err
	}
	noStore(c)
	return c.Status(fiber.StatusCreated).JSON(toSession(s))
}

type loginRequest struct {
	Email    string `json:"email" validate:"required,max=254"`
	Password string `json:"password" validate:"required,max=256"`
}

// login: POST /customers/login → 200 like register. Errors:
// VALIDATION_ERROR, UNAUTHORIZED, RATE_LIMITED.
func (h *handlers) login(c *fiber.Ctx) error {
	var req loginRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := h.limitAuth(c, "login"); err != nil {
		return err
	}
	s, err := h.customers.Login(c.UserContext(), req.Email, req.Password)
	if err != nil {
		return err
	}
	noStore(c)
	return c.JSON(toSession(s))
}

// me: GET /customers/me → the signed-in customer.
func (h *handlers) me(c *fiber.Ctx) error {
	return c.JSON(toCustomer(customerOf(c)))
}

// addressRequest is an address in a body: a saved address, or a guest's.
type addressRequest struct {
	Type     string `json:"type"` // customer.CheckAddress checks it
	Street   string `json:"street" validate:"required,notblank,max=500"`
	City     string `json:"city" validate:"required,notblank,max=100"`
	State    string `json:"state" validate:"required,notblank,max=100"`
	Pincode  string `json:"pincode" validate:"required,max=12"`
	District string `json:"district" validate:"max=100"`
	Country  string `json:"country" validate:"required,notblank,max=100"`
}

func (a addressRequest) model() models.Address {
	return models.Address{Type: a.Type, Street: a.Street, City: a.City, State: a.State, Pincode: a.Pincode,
		District: a.District, Country: a.Country}
}

type addressBody struct {
	ID        uuid.UUID `json:"id"`
	Type      string    `json:"type"`
	Street    string    `json:"street"`
	City      string    `json:"city"`
	State     string    `json:"state"`
	Pincode   string    `json:"pincode"`
	District  string    `json:"district"`
	Country   string    `json:"country"`
	CreatedAt time.Time `json:"createdAt"`
}

func toAddress(a models.CustomerAddress) addressBody {
	return addressBody{ID: a.ID, Type: a.Type, Street: a.Street, City: a.City, State: a.State, Pincode: a.Pincode,
		District: a.District, Country: a.Country, CreatedAt: a.CreatedAt.UTC()}
}

// addAddress: POST /customers/me/addresses → 201 address.
// Errors: VALIDATION_ERROR.
func (h *handlers) addAddress(c *fiber.Ctx) error {
	var req addressRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	a, err := h.customers.AddAddress(c.UserContext(), customerOf(c).ID, req.model())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toAddress(*a))
}

// listAddresses: GET /customers/me/addresses → paged list, newest first.
func (h *handlers) listAddresses(c *fiber.Ctx) error {
	p, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	rows, total, err := h.customers.Addresses(c.UserContext(), customerOf(c).ID, p.Window())
	if err != nil {
		return err
	}
	out := make([]addressBody, len(rows))
	for i, a := range rows {
		out[i] = toAddress(a)
	}
	return c.JSON(httpx.NewList(out, p, total))
}
