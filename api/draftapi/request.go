package draftapi

import (
	"fmt"
	"strings"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/draft"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type itemRequest struct {
	VariantID string        `json:"variantId" validate:"required,uuid"`
	Quantity  int           `json:"quantity" validate:"required,min=1,max=1000"`
	Price     *money.Amount `json:"price" validate:"omitempty,gte=0"`
	BundleID  string        `json:"bundleId" validate:"omitempty,uuid"`
}

type addressRequest struct {
	Type     string `json:"type"` // customer.CheckAddress checks it
	Street   string `json:"street" validate:"required,notblank,max=500"`
	City     string `json:"city" validate:"required,notblank,max=100"`
	State    string `json:"state" validate:"required,notblank,max=100"`
	Pincode  string `json:"pincode" validate:"required,max=12"`
	District string `json:"district" validate:"max=100"`
	Country  string `json:"country" validate:"required,notblank,max=100"`
}

// address validates a and returns it as the model; field prefixes names.
func (a *addressRequest) address(field string) (*models.Address, error) {
	if a == nil {
		return nil, nil
	}
	m := models.Address{Type: a.Type, Street: a.Street, City: a.City, State: a.State, Pincode: a.Pincode,
		District: a.District, Country: a.Country}
	if err := customer.CheckAddress(&m, field+"."); err != nil {
		return nil, err
	}
	return &m, nil
}

// draftRequest is the body of POST /draft-orders; every field is optional
// in a PATCH.
type draftRequest struct {
	CustomerID       *string         `json:"customerId" validate:"omitempty,uuid"`
	Email            *string         `json:"email" validate:"omitempty,max=254,email"`
	Name             *string         `json:"name" validate:"omitempty,max=200"`
	Phone            *string         `json:"phone" validate:"omitempty,max=20"`
	Items            *[]itemRequest  `json:"items" validate:"omitempty,min=1,max=100,dive"`
	ShippingAddress  *addressRequest `json:"shippingAddress"`
	BillingAddress   *addressRequest `json:"billingAddress"`
	ShippingMethodID *string         `json:"shippingMethodId" validate:"omitempty,uuid"`
	ShippingCost     *money.Amount   `json:"shippingCost" validate:"omitempty,gte=0,lte=100000"`
	DiscountCode     *string         `json:"discountCode" validate:"omitempty,max=64"`
	BuyerGSTIN       *string         `json:"buyerGstin" validate:"omitempty,max=20"`
	BuyerName        *string         `json:"buyerName" validate:"omitempty,max=200"`
	Note             *string         `json:"note" validate:"omitempty,max=2000"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

// buyer reads who the draft is for: customerId, or a name with an email or
// a phone (either suffices, both may be given: a phone order's buyer may
// have no email). nil when the body names neither (a PATCH leaving it).
func (r *draftRequest) buyer() (*draft.Buyer, error) {
	if r.CustomerID != nil && *r.CustomerID != "" {
		id := uuid.MustParse(*r.CustomerID)
		return &draft.Buyer{CustomerID: &id}, nil
	}
	if r.Email == nil && r.Name == nil && r.Phone == nil {
		return nil, nil
	}
	if str(r.Email) == "" && str(r.Phone) == "" {
		return nil, apperr.Invalid("email", "is required without customerId or phone")
	}
	if str(r.Name) == "" {
		return nil, apperr.Invalid("name", "is required without customerId")
	}
	if err := customer.CheckPhone("phone", str(r.Phone), false); err != nil {
		return nil, err
	}
	email := ""
	if e := str(r.Email); e != "" {
		email = customer.NormalizeEmail(e)
	}
	return &draft.Buyer{Email: email, Name: str(r.Name), Phone: str(r.Phone)}, nil
}

// items reads the lines; a hand-set price needs the pricing permission.
// Errors: VALIDATION_ERROR, FORBIDDEN naming items[i].price.
func (r *draftRequest) items(c *fiber.Ctx) (*[]draft.Item, error) {
	if r.Items == nil {
		return nil, nil
	}
	out := make([]draft.Item, len(*r.Items))
	for i, it := range *r.Items {
		out[i] = draft.Item{VariantID: uuid.MustParse(it.VariantID), Quantity: it.Quantity, Price: it.Price}
		if it.BundleID != "" {
			id := uuid.MustParse(it.BundleID)
			out[i].BundleID = &id
		}
		if it.Price != nil && !mayPrice(c) {
			field := fmt.Sprintf("items[%d].price", i)
			return nil, apperr.New(apperr.Forbidden, "your role may not set a line's price").
				WithDetails(map[string]any{"field": field, "issue": "needs the " + rbac.PricingWrite.Name + " permission"})
		}
	}
	return &out, nil
}

// mayPrice reports whether the caller holds the pricing permission.
func mayPrice(c *fiber.Ctx) bool {
	p := adminroute.PrincipalOf(c)
	return p != nil && rbac.Allows(rbac.Role(p.Role), rbac.PricingWrite)
}

func (r *draftRequest) taxBuyer() (*models.TaxBuyer, error) {
	if r.BuyerGSTIN == nil && r.BuyerName == nil {
		return nil, nil
	}
	b := models.TaxBuyer{BuyerName: str(r.BuyerName)}
	if g := str(r.BuyerGSTIN); g != "" {
		g = gstin.Normalize(g)
		if err := gstin.Check("buyerGstin", g, ""); err != nil {
			return nil, err
		}
		b.BuyerGSTIN = &g
	}
	return &b, nil
}

func optionalUUID(s *string) *uuid.UUID {
	if s == nil || *s == "" {
		return nil
	}
	id := uuid.MustParse(*s)
	return &id
}

// input reads a create body. Errors: VALIDATION_ERROR, FORBIDDEN.
func (r *draftRequest) input(c *fiber.Ctx) (draft.Input, error) {
	var in draft.Input
	b, err := r.buyer()
	if err != nil {
		return in, err
	}
	if b == nil {
		return in, apperr.Invalid("email", "is required without customerId or phone")
	}
	items, err := r.items(c)
	if err != nil {
		return in, err
	}
	if items == nil {
		return in, apperr.Invalid("items", "is required")
	}
	if r.ShippingAddress == nil {
		return in, apperr.Invalid("shippingAddress", "is required")
	}
	ship, err := r.ShippingAddress.address("shippingAddress")
	if err != nil {
		return in, err
	}
	bill, err := r.BillingAddress.address("billingAddress")
	if err != nil {
		return in, err
	}
	tb, err := r.taxBuyer()
	if err != nil {
		return in, err
	}
	in = draft.Input{Buyer: *b, Items: *items, ShippingAddress: *ship, BillingAddress: bill,
		ShippingMethodID: optionalUUID(r.ShippingMethodID), ShippingCost: r.ShippingCost, Note: str(r.Note)}
	if code := str(r.DiscountCode); code != "" {
		in.DiscountCode = &code
	}
	if tb != nil {
		in.TaxBuyer = *tb
	}
	return in, nil
}

// patch reads a PATCH body. Errors: VALIDATION_ERROR, FORBIDDEN.
func (r *draftRequest) patch(c *fiber.Ctx) (draft.Patch, error) {
	var p draft.Patch
	var err error
	if p.Buyer, err = r.buyer(); err != nil {
		return p, err
	}
	if p.Items, err = r.items(c); err != nil {
		return p, err
	}
	if p.ShippingAddress, err = r.ShippingAddress.address("shippingAddress"); err != nil {
		return p, err
	}
	if p.BillingAddress, err = r.BillingAddress.address("billingAddress"); err != nil {
		return p, err
	}
	if p.TaxBuyer, err = r.taxBuyer(); err != nil {
		return p, err
	}
	p.ShippingMethodID, p.ShippingCost, p.DiscountCode = optionalUUID(r.ShippingMethodID), r.ShippingCost, r.DiscountCode
	if r.Note != nil {
		n := str(r.Note)
		p.Note = &n
	}
	return p, nil
}
