package invoiceapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gofiber/fiber/v2"
)

type addressRequest struct {
	Line1   string `json:"line1" validate:"max=200"`
	Line2   string `json:"line2" validate:"max=200"`
	City    string `json:"city" validate:"max=100"`
	State   string `json:"state" validate:"max=100"`
	Pincode string `json:"pincode" validate:"max=10"`
}

// settingsRequest is the body of PUT /admin/settings/tax: the whole
// identity (the prefixes and limit fall back to their defaults).
type settingsRequest struct {
	LegalName        string         `json:"legalName" validate:"required,notblank,max=200"`
	TradeName        string         `json:"tradeName" validate:"max=200"`
	GSTIN            string         `json:"gstin" validate:"required,max=20"`
	Address          addressRequest `json:"address" validate:"required"`
	InvoicePrefix    string         `json:"invoicePrefix" validate:"max=5"`
	CreditNotePrefix string         `json:"creditNotePrefix" validate:"max=5"`
	B2CLLimit        *money.Amount  `json:"b2clLimit" validate:"omitempty,gt=0"`
	TurnoverAbove5Cr bool           `json:"turnoverAbove5Cr"`
	// SignatureImage is a PNG as base64 or a data URL; absent keeps the
	// one set, "" removes it.
	SignatureImage *string `json:"signatureImage"`
	// ShippingTax is "with_goods" or "own_rate"; absent keeps the one set
	// ("with_goods" until one is).
	ShippingTax *string `json:"shippingTax"`
	// EInvoicing and EwayBillIntraStates: absent keeps the ones set.
	EInvoicing          *bool    `json:"eInvoicing"`
	EwayBillIntraStates []string `json:"ewayBillIntraStates" validate:"omitempty,max=40,dive,max=100"`
	// AATOAtLeast10Cr: the 30-day reporting window applies; absent keeps
	// the one set.
	AATOAtLeast10Cr *bool `json:"aatoAtLeast10Cr"`
}

// getSettings: GET /admin/settings/tax → the identity (defaults and
// configured false before one is set).
func (h *handlers) getSettings(c *fiber.Ctx) error {
	s, err := h.invoices.Settings(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(s)
}

// putSettings: PUT /admin/settings/tax → the identity now in force.
// Errors: VALIDATION_ERROR (gstin for a wrong pattern, check character or
// state code).
func (h *handlers) putSettings(c *fiber.Ctx) error {
	var req settingsRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	a := req.Address
	in := invoice.Settings{LegalName: req.LegalName, TradeName: req.TradeName, GSTIN: req.GSTIN,
		Address:       invoice.Address{Line1: a.Line1, Line2: a.Line2, City: a.City, State: a.State, Pincode: a.Pincode},
		InvoicePrefix: req.InvoicePrefix, CreditNotePrefix: req.CreditNotePrefix, TurnoverAbove5Cr: req.TurnoverAbove5Cr}
	if req.B2CLLimit != nil {
		in.B2CLLimit = *req.B2CLLimit
	}
	in.SignatureImage, in.ShippingTax = req.SignatureImage, req.ShippingTax
	in.EInvoicing, in.EwayBillIntraStates, in.AATOAtLeast10Cr = req.EInvoicing, req.EwayBillIntraStates, req.AATOAtLeast10Cr
	s, err := h.invoices.PutSettings(c.UserContext(), in)
	if err != nil {
		return err
	}
	adminroute.SetAuditEntity(c, s.GSTIN)
	return c.JSON(s)
}
