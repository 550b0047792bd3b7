package invoice

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/region"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Address is a postal address of a tax document's supplier or recipient.
type Address struct {
	Line1   string `json:"line1"`
	Line2   string `json:"line2"`
	City    string `json:"city"`
	State   string `json:"state"`
	Pincode string `json:"pincode"`
}

// Settings is the store's tax identity (GET/PUT /admin/settings/tax).
type Settings struct {
	LegalName        string       `json:"legalName"`
	TradeName        string       `json:"tradeName"`
	GSTIN            string       `json:"gstin"`
	Address          Address      `json:"address"`
	InvoicePrefix    string       `json:"invoicePrefix"`
	CreditNotePrefix string       `json:"creditNotePrefix"`
	B2CLLimit        money.Amount `json:"b2clLimit"`
	// TurnoverAbove5Cr says the aggregate turnover of the previous year
	// was above 5 crore: active goods then need 6 or 8 digit HSN codes.
	TurnoverAbove5Cr bool `json:"turnoverAbove5Cr"`
	// Configured is false until the identity has been set: no document is
	// issued before.
	Configured bool `json:"configured"`
	// SignatureImage is the authorised signatory's signature, a PNG as a
	// data URL (base64 is accepted too); nil in a PUT keeps the one set,
	// "" removes it.
	SignatureImage *string `json:"signatureImage"`
	// ShippingTax is how the shipping and the COD fee are taxed:
	// models.ShippingTaxWithGoods (the default) or
	// models.ShippingTaxOwnRate (docs/DECISIONS.md "Shipping taxed with
	// the goods"); nil in a PUT keeps the one set.
	ShippingTax *string `json:"shippingTax"`
	// EInvoicing reports every invoice and credit note to a registered
	// buyer to the IRP (docs/DECISIONS.md "E-invoices and e-way bills");
	// nil in a PUT keeps the one set.
	EInvoicing *bool `json:"eInvoicing"`
	// EwayBillIntraStates are the states where goods moving within the
	// state need an e-way bill too; nil in a PUT keeps the list set.
	EwayBillIntraStates []string `json:"ewayBillIntraStates"`
	// AATOAtLeast10Cr says the store's aggregate annual turnover is ₹10
	// crore or more: the IRP then refuses documents older than 30 days,
	// and the shop does not send them (docs/DECISIONS.md "The 30-day
	// reporting window"); nil in a PUT keeps the one set.
	AATOAtLeast10Cr *bool `json:"aatoAtLeast10Cr"`
}

// withGoods is the default shippingTax.
var withGoods = models.ShippingTaxWithGoods

// Defaults of the settings.
const (
	DefaultInvoicePrefix    = "INV"
	DefaultCreditNotePrefix = "CN"
)

// DefaultB2CLLimit is the invoice value above which an inter-state invoice
// to an unregistered buyer is reported one by one in GSTR-1 (b2cl): ₹1 lakh.
var DefaultB2CLLimit = money.FromMajor(100000)

// prefixPattern allows the characters a GST document number may hold
// besides its separators; five at most leave room for a six-digit serial
// within 16 characters ("PREFX/26-27/0001" has four).
var prefixPattern = regexp.MustCompile(`^[A-Za-z0-9-]{1,5}$`)

var pincodePattern = regexp.MustCompile(`^[1-9][0-9]{5}$`)

// Settings returns the store's tax identity, or the defaults with
// Configured false when none was set.
func (s *Service) Settings(ctx context.Context) (*Settings, error) {
	var row models.TaxSettings
	q := s.db.WithContext(ctx).Limit(1).Find(&row)
	if q.Error != nil {
		return nil, database.Translate(q.Error, "tax settings")
	}
	if q.RowsAffected == 0 {
		off := false
		return &Settings{InvoicePrefix: DefaultInvoicePrefix, CreditNotePrefix: DefaultCreditNotePrefix, B2CLLimit: DefaultB2CLLimit,
			ShippingTax: &withGoods, EInvoicing: &off, EwayBillIntraStates: []string{}, AATOAtLeast10Cr: &off}, nil
	}
	return settingsOf(&row)
}

func settingsOf(row *models.TaxSettings) (*Settings, error) {
	out := &Settings{LegalName: row.LegalName, TradeName: row.TradeName, GSTIN: row.GSTIN, InvoicePrefix: row.InvoicePrefix,
		CreditNotePrefix: row.CreditNotePrefix, B2CLLimit: row.B2CLLimit, TurnoverAbove5Cr: row.TurnoverAbove5Cr, Configured: true,
		SignatureImage: signatureURL(row.SignatureImage), ShippingTax: &row.ShippingTax, EInvoicing: &row.EInvoicing,
		EwayBillIntraStates: orNone(row.EwayBillIntraStates), AATOAtLeast10Cr: &row.AATOAtLeast10Cr}
	if err := json.Unmarshal(row.Address, &out.Address); err != nil {
		return nil, fmt.Errorf("invoice.settings: address: %w", err)
	}
	return out, nil
}

// Configured reports whether the tax identity is set (the health report's
// taxDocuments).
func (s *Service) Configured(ctx context.Context) (bool, error) {
	var ok bool
	err := s.db.WithContext(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM tax_settings)`).Scan(&ok).Error
	return ok, err
}

// Normalize trims in's text, upper-cases its GSTIN and prefixes, names the
// state as the list does and fills the defaults.
func (in *Settings) Normalize() {
	in.LegalName, in.TradeName = strings.TrimSpace(in.LegalName), strings.TrimSpace(in.TradeName)
	in.GSTIN = gstin.Normalize(in.GSTIN)
	a := &in.Address
	a.Line1, a.Line2, a.City, a.Pincode = strings.TrimSpace(a.Line1), strings.TrimSpace(a.Line2), strings.TrimSpace(a.City), strings.TrimSpace(a.Pincode)
	if st, ok := region.Canonical(a.State); ok {
		a.State = st
	}
	in.InvoicePrefix = strings.ToUpper(strings.TrimSpace(in.InvoicePrefix))
	in.CreditNotePrefix = strings.ToUpper(strings.TrimSpace(in.CreditNotePrefix))
	if in.InvoicePrefix == "" {
		in.InvoicePrefix = DefaultInvoicePrefix
	}
	if in.CreditNotePrefix == "" {
		in.CreditNotePrefix = DefaultCreditNotePrefix
	}
	if in.B2CLLimit == 0 {
		in.B2CLLimit = DefaultB2CLLimit
	}
}

// Check validates normalized settings. Errors: VALIDATION_ERROR naming the
// field (gstin for a GSTIN whose check character or state code is wrong).
func (in *Settings) Check() error {
	a := in.Address
	switch {
	case in.LegalName == "" || len(in.LegalName) > 200:
		return apperr.Invalid("legalName", "is required, at most 200 characters")
	case len(in.TradeName) > 200:
		return apperr.Invalid("tradeName", "must be at most 200 characters")
	case a.Line1 == "" || len(a.Line1) > 200:
		return apperr.Invalid("address.line1", "is required, at most 200 characters")
	case len(a.Line2) > 200:
		return apperr.Invalid("address.line2", "must be at most 200 characters")
	case a.City == "" || len(a.City) > 100:
		return apperr.Invalid("address.city", "is required, at most 100 characters")
	case !pincodePattern.MatchString(a.Pincode):
		return apperr.Invalid("address.pincode", "must be a 6-digit Indian PIN code")
	case !prefixPattern.MatchString(in.InvoicePrefix):
		return apperr.Invalid("invoicePrefix", "must be 1 to 5 letters, digits or hyphens")
	case !prefixPattern.MatchString(in.CreditNotePrefix):
		return apperr.Invalid("creditNotePrefix", "must be 1 to 5 letters, digits or hyphens")
	case in.CreditNotePrefix == in.InvoicePrefix:
		return apperr.Invalid("creditNotePrefix", "must differ from invoicePrefix: the two series would share numbers")
	case in.B2CLLimit <= 0 || in.B2CLLimit > money.MaxAmount:
		return apperr.Invalid("b2clLimit", "must be greater than 0")
	}
	if err := TransferPrefixTaken("invoicePrefix", in.InvoicePrefix); err != nil {
		return err
	}
	if err := TransferPrefixTaken("creditNotePrefix", in.CreditNotePrefix); err != nil {
		return err
	}
	if _, ok := region.Canonical(a.State); !ok {
		return apperr.Invalid("address.state", "must be a state or union territory of India")
	}
	if in.GSTIN == "" {
		return apperr.Invalid("gstin", "is required")
	}
	if in.SignatureImage != nil && *in.SignatureImage != "" {
		if _, err := decodeSignature(*in.SignatureImage); err != nil {
			return err
		}
	}
	for i, st := range in.EwayBillIntraStates {
		name, ok := region.Canonical(st)
		if !ok {
			return apperr.Invalid(fmt.Sprintf("ewayBillIntraStates[%d]", i), "must be a state or union territory of India")
		}
		in.EwayBillIntraStates[i] = name
	}
	if t := in.ShippingTax; t != nil && *t != models.ShippingTaxWithGoods && *t != models.ShippingTaxOwnRate {
		return apperr.Invalid("shippingTax", `must be "with_goods" or "own_rate"`)
	}
	return gstin.Check("gstin", in.GSTIN, a.State)
}

// PutSettings validates in (normalized first) and makes it the store's tax
// identity; documents issued from then on carry it, and checkouts from then
// on tax the shipping and the COD fee as in.ShippingTax says (nil keeps
// the one set). Errors: VALIDATION_ERROR.
func (s *Service) PutSettings(ctx context.Context, in Settings) (*Settings, error) {
	in.Normalize()
	if err := in.Check(); err != nil {
		return nil, err
	}
	addr, err := json.Marshal(in.Address)
	if err != nil {
		return nil, err
	}
	var signature []byte
	if in.SignatureImage != nil && *in.SignatureImage != "" {
		if signature, err = decodeSignature(*in.SignatureImage); err != nil {
			return nil, err
		}
	}
	var shippingTax string
	var gst struct {
		EInvoicing          bool
		EwayBillIntraStates models.StringArray
		AATOAtLeast10Cr     bool `gorm:"column:aato_at_least_10cr"`
	}
	now := time.Now().UTC()
	row := models.TaxSettings{ID: 1, LegalName: in.LegalName, TradeName: in.TradeName, GSTIN: in.GSTIN, Address: addr,
		InvoicePrefix: in.InvoicePrefix, CreditNotePrefix: in.CreditNotePrefix, B2CLLimit: in.B2CLLimit,
		TurnoverAbove5Cr: in.TurnoverAbove5Cr, ConfiguredAt: now, UpdatedAt: now}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := checkHomeState(tx, in); err != nil {
			return err
		}
		if err := tx.Clauses(clause.OnConflict{
			Columns: []clause.Column{{Name: "id"}},
			DoUpdates: clause.AssignmentColumns([]string{"legal_name", "trade_name", "gstin", "address", "invoice_prefix",
				"credit_note_prefix", "b2cl_limit", "turnover_above_5cr", "updated_at"}),
		}).Create(&row).Error; err != nil {
			return err
		}
		if in.SignatureImage != nil {
			if err := tx.Exec(`UPDATE tax_settings SET signature_image = ? WHERE id = 1`, signature).Error; err != nil {
				return err
			}
		}
		if in.ShippingTax != nil {
			if err := tx.Exec(`UPDATE tax_settings SET shipping_tax = ? WHERE id = 1`, *in.ShippingTax).Error; err != nil {
				return err
			}
		}
		if in.EInvoicing != nil {
			if err := tx.Exec(`UPDATE tax_settings SET e_invoicing = ? WHERE id = 1`, *in.EInvoicing).Error; err != nil {
				return err
			}
		}
		if in.AATOAtLeast10Cr != nil {
			if err := tx.Exec(`UPDATE tax_settings SET aato_at_least_10cr = ? WHERE id = 1`, *in.AATOAtLeast10Cr).Error; err != nil {
				return err
			}
		}
		if in.EwayBillIntraStates != nil {
			if err := tx.Exec(`UPDATE tax_settings SET eway_bill_intra_states = ? WHERE id = 1`,
				models.StringArray(in.EwayBillIntraStates)).Error; err != nil {
				return err
			}
		}
		if err := tx.Raw(`SELECT shipping_tax FROM tax_settings WHERE id = 1`).Scan(&shippingTax).Error; err != nil {
			return err
		}
		if err := tx.Raw(`SELECT e_invoicing, eway_bill_intra_states, aato_at_least_10cr FROM tax_settings WHERE id = 1`).Scan(&gst).Error; err != nil {
			return err
		}
		signature, err = signatureImage(tx)
		if err != nil {
			return err
		}
		clash, err := FindPrefixClash(tx, nil)
		switch {
		case err != nil:
			return err
		case clash != nil && clash.InvoiceBy == nil:
			return clash.Refusal("invoicePrefix")
		case clash != nil:
			return clash.Refusal("creditNotePrefix")
		}
		return nil
	})
	if err != nil {
		return nil, database.Translate(err, "tax settings")
	}
	in.Configured = true
	in.SignatureImage = signatureURL(signature)
	in.ShippingTax = &shippingTax
	in.EInvoicing, in.EwayBillIntraStates = &gst.EInvoicing, orNone(gst.EwayBillIntraStates)
	in.AATOAtLeast10Cr = &gst.AATOAtLeast10Cr
	return &in, nil
}

// checkHomeState refuses settings whose GSTIN is registered in another
// state than the default location's: that state is the store's, which
// checkout splits GST against (CGST and SGST within it), so a GSTIN of
// another state would put the wrong tax on every invoice. Errors:
// VALIDATION_ERROR naming gstin.
func checkHomeState(tx *gorm.DB, in Settings) error {
	var home *string
	if err := tx.Raw(`SELECT address->>'state' FROM locations WHERE is_default`).Scan(&home).Error; err != nil {
		return fmt.Errorf("invoice.settings: home state: %w", err)
	}
	if home == nil || *home == "" || *home == in.Address.State {
		return nil
	}
	return apperr.Invalid("gstin", fmt.Sprintf("is registered in %s, but the default location, whose state checkout "+
		"charges GST from, is in %s: the store's GSTIN must be of the state it sells from", in.Address.State, *home))
}

// orNone is states, or an empty list for none (JSON [] rather than null).
func orNone(states []string) []string {
	if states == nil {
		return []string{}
	}
	return states
}
