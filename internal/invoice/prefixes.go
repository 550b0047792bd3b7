package invoice

import (
	"fmt"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// PrefixClash is a prefix that one series of a GSTIN numbers invoices with
// and another numbers credit notes with: an invoice and a credit note would
// carry the same number, which GSTR-1 and the buyer cannot tell apart.
type PrefixClash struct {
	Prefix string
	// InvoiceBy and CreditBy name the location whose invoices and credit
	// notes use Prefix; nil is the store's own settings (or, for credit
	// notes, the financial credit notes' series).
	InvoiceBy, CreditBy *uuid.UUID
}

// FindPrefixClash looks, in tx, at every series the store's settings and
// its locations (a location without a prefix or GSTIN of its own uses the
// store's) number documents in, and returns a prefix used under one GSTIN
// for both invoices and credit notes (financial credit notes included), or
// nil; with involving, only a clash where that location's invoices or
// credit notes take part. Writers of prefixes run it after their write, in
// its transaction, so the check sees the configuration as it would be.
func FindPrefixClash(tx *gorm.DB, involving *uuid.UUID) (*PrefixClash, error) {
	var rows []struct {
		Prefix              string
		InvoiceBy, CreditBy *uuid.UUID
	}
	// A handful of rows, but the planner's guesses for the join of
	// unanalysed tables reach JIT's threshold: compiling took a second.
	if err := tx.Exec(`SET LOCAL jit = off`).Error; err != nil {
		return nil, fmt.Errorf("invoice.prefixes: %w", err)
	}
	err := tx.Raw(`WITH t AS (
			SELECT gstin, invoice_prefix, credit_note_prefix FROM tax_settings
			UNION ALL SELECT NULL, ?, ? WHERE NOT EXISTS (SELECT 1 FROM tax_settings)),
		uses AS (
			SELECT t.gstin AS g, upper(t.invoice_prefix) AS inv, upper(t.credit_note_prefix) AS cn, NULL::uuid AS loc FROM t
			UNION ALL
			SELECT COALESCE(l.gstin, t.gstin), upper(COALESCE(l.invoice_prefix, t.invoice_prefix)),
				upper(COALESCE(l.credit_note_prefix, t.credit_note_prefix)), l.id FROM locations l CROSS JOIN t),
		credits AS (SELECT g, cn, loc FROM uses UNION SELECT g, ?, NULL::uuid FROM uses)
		SELECT a.inv AS prefix, a.loc AS invoice_by, c.loc AS credit_by
		FROM uses a JOIN credits c ON a.g IS NOT DISTINCT FROM c.g AND a.inv = c.cn
		WHERE ?::uuid IS NULL OR ? IN (a.loc, c.loc)
		ORDER BY a.loc NULLS FIRST, c.loc NULLS FIRST LIMIT 1`,
		DefaultInvoicePrefix, DefaultCreditNotePrefix, FinancialCreditNotePrefix, involving, involving).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("invoice.prefixes: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	r := rows[0]
	return &PrefixClash{Prefix: r.Prefix, InvoiceBy: r.InvoiceBy, CreditBy: r.CreditBy}, nil
}

// Refusal is the VALIDATION_ERROR for c, naming field.
func (c *PrefixClash) Refusal(field string) error {
	who := func(id *uuid.UUID, docs string) string {
		if id == nil {
			if docs == "credit notes" && strings.EqualFold(c.Prefix, FinancialCreditNotePrefix) {
				return "the financial credit notes"
			}
			return "the store's " + docs
		}
		return "the " + docs + " of location " + id.String()
	}
	return apperr.Invalid(field, fmt.Sprintf("%q numbers both %s and %s under one GSTIN: an invoice and a credit note "+
		"would share a number; choose prefixes that differ", c.Prefix, who(c.InvoiceBy, "invoices"), who(c.CreditBy, "credit notes")))
}

// TransferPrefixTaken is the VALIDATION_ERROR for a store's or location's
// prefix that is one of the stock transfers' series (TransferInvoicePrefix,
// TransferCreditNotePrefix, DeliveryChallanPrefix), else nil: sales
// documents numbered in one would share numbers with transfer documents
// of another nature under the same GSTIN (a credit note and a transfer
// invoice, an invoice and a challan), which GSTR-1's doc_issue cannot tell
// apart.
func TransferPrefixTaken(field, prefix string) error {
	for _, t := range []string{TransferInvoicePrefix, TransferCreditNotePrefix, DeliveryChallanPrefix} {
		if strings.EqualFold(prefix, t) {
			return apperr.Invalid(field, fmt.Sprintf("%q numbers stock transfer documents; choose another prefix", t))
		}
	}
	return nil
}
