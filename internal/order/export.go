package order

import (
	"context"
	"database/sql"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"gorm.io/gorm"
)

// exportHeader names the CSV columns of ExportCSV, in their order.
var exportHeader = []string{"Order number", "Placed (UTC)", "Status", "Payment status", "Fulfilment status",
	"Customer name", "Email", "Phone", "Ship to state", "Units", "Subtotal", "Discount", "Discount code",
	"Shipping", "GST", "Total", "Paid", "Refunded", "Currency"}

// ExportCSV writes the orders matching f to w as CSV (a header row, then
// one row per order, newest first, amounts in major units) and returns how
// many orders it wrote. The rows are one statement's snapshot, streamed, so
// a large export holds no more than a row in memory. Text a customer typed
// is written so that a spreadsheet shows it and never runs it as a formula.
// Errors: VALIDATION_ERROR (dateFrom after dateTo), or the database's.
func (s *Service) ExportCSV(ctx context.Context, f Filter, w io.Writer) (int, error) {
	f.loc = s.zone()
	if err := f.check(); err != nil {
		return 0, err
	}
	out := csv.NewWriter(w)
	if err := out.Write(exportHeader); err != nil {
		return 0, err
	}
	n := 0
	cond, args := f.conditions()
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		// As in List: a search is planned with its own pattern.
		if err := tx.Exec(`SET LOCAL plan_cache_mode = force_custom_plan`).Error; err != nil {
			return err
		}
		rows, err := tx.Raw(`SELECT o.order_number, o.created_at, o.status, o.payment_status, o.fulfillment_status,
				o.name, o.email, o.phone, coalesce(o.shipping_address->>'state', ''),
				(SELECT coalesce(sum(i.quantity), 0) FROM order_items i WHERE i.order_id = o.id),
				o.subtotal, o.discount_total, coalesce(o.discount_code, ''), o.shipping_cost, o.tax_total, o.total,
				o.paid_total, o.refunded_total, o.currency
			FROM orders o WHERE `+cond+` ORDER BY `+listOrder, args...).Rows()
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r exportRow
			if err := rows.Scan(&r.number, &r.placed, &r.status, &r.payment, &r.fulfilment, &r.name, &r.email, &r.phone,
				&r.state, &r.units, &r.subtotal, &r.discount, &r.code, &r.shipping, &r.tax, &r.total, &r.paid,
				&r.refunded, &r.currency); err != nil {
				return err
			}
			if err := out.Write(r.record()); err != nil {
				return err
			}
			n++
		}
		return rows.Err()
	}, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return n, fmt.Errorf("order.export_csv: %w", err)
	}
	out.Flush()
	return n, out.Error()
}

// check returns VALIDATION_ERROR for a filter no list may run.
func (f Filter) check() error {
	if f.From != nil && f.To != nil && f.From.After(*f.To) {
		return apperr.Invalid("dateFrom", "must not be after dateTo")
	}
	return nil
}

type exportRow struct {
	number, status, payment, fulfilment, name, email, phone, state, code, currency string
	placed                                                                         time.Time
	units                                                                          int64
	subtotal, discount, shipping, tax, total, paid, refunded                       money.Amount
}

func (r exportRow) record() []string {
	return []string{r.number, r.placed.UTC().Format(time.RFC3339), r.status, r.payment, r.fulfilment,
		cell(r.name), cell(r.email), cell(r.phone), cell(r.state), strconv.FormatInt(r.units, 10),
		r.subtotal.String(), r.discount.String(), cell(r.code), r.shipping.String(), r.tax.String(), r.total.String(),
		r.paid.String(), r.refunded.String(), r.currency}
}

// cell makes typed text safe in a spreadsheet: one that starts like a
// formula (=, +, -, @, tab or carriage return) gets a leading apostrophe,
// which spreadsheets show as text (OWASP "CSV injection").
func cell(s string) string {
	if s != "" && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r') {
		return "'" + s
	}
	return s
}
