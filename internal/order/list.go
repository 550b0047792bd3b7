package order

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/storeday"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Filter narrows an order list. Zero fields do not filter.
type Filter struct {
	Status     string
	CustomerID *uuid.UUID
	// OrderNumber matches one order exactly (case-insensitive), e.g. ORD-000123.
	OrderNumber string
	// Search matches part of the order number, the customer's name or email,
	// ignoring case and accents ("000123", "priya", "@example.com"), or the
	// customer's phone however it is written ("98401 23456",
	// "+91 98401 23456", "09840123456": searchTerm).
	Search string
	// PaymentMethod (online, cod) and PaymentStatus (models'
	// PaymentStatuses) select orders paid that way and in that state: COD
	// orders still to collect are cod and pending.
	PaymentMethod, PaymentStatus string
	// IDs, when set, selects only these orders (a page naming the orders it
	// refers to).
	IDs []uuid.UUID
	// From and To are inclusive dates of creation, the store's days
	// (STORE_TIMEZONE: the service's zone, WithZone).
	From, To *time.Time
	// loc is the zone of From and To, set by the service.
	loc *time.Location
}

// span is f's dates as instants of creation.
func (f Filter) span() storeday.Span {
	return storeday.Dates(f.From, f.To, storeday.OrUTC(f.loc))
}

// Page chooses the rows of a list: Limit rows after skipping Offset, or,
// when After is set, the Limit rows that follow that position (a cursor;
// Offset is then ignored).
type Page struct {
	paging.Window
	After *Position
}

// Position is a place in the list's order, newest first: created_at DESC,
// id DESC. Rows inserted after a walk began sort before any position the
// walk reached, so walking on from a Position neither repeats nor skips
// the rows that were there.
type Position struct {
	CreatedAt time.Time
	ID        uuid.UUID
}

// Listed is one page of orders.
type Listed struct {
	Rows []Summary
	// Total is how many orders match the filter, counted in the same
	// snapshot as Rows.
	Total int64
	// Next is the position of the page's last row when more rows follow.
	Next *Position
}

// Summary is an order as the list shows it.
type Summary struct {
	ID            uuid.UUID
	OrderNumber   string
	Status        string
	PaymentStatus string
	PaymentMethod string
	CustomerID    uuid.UUID
	Email         string
	Name          string
	ItemCount     int
	Total         money.Amount
	PaidTotal     money.Amount
	RefundedTotal money.Amount
	Currency      string
	CreatedAt     time.Time
}

// listRow is a Summary with the total of its statement.
type listRow struct {
	Summary
	Matched int64
}

// List returns one page of orders matching f, newest first, and how many
// match in all at the time of the call. dateFrom after dateTo is
// VALIDATION_ERROR.
//
// The page and its total are one statement, so they share a snapshot: an
// order committed before the call is in both or, if it commits meanwhile, in
// neither. Every filter has an index in list order (orders_created_idx,
// orders_status_idx, orders_customer_idx; the order number is unique), so
// a page reads Limit+1 index entries after its offset or cursor; a search
// reads its matches through the trigram index of order_search
// (docs/DECISIONS.md, "Console search and exports"). How the total is
// counted depends on the filter: see count.
func (s *Service) List(ctx context.Context, f Filter, p Page) (Listed, error) {
	f.loc = s.zone()
	if f.From != nil && f.To != nil && f.From.After(*f.To) {
		return Listed{}, apperr.Invalid("dateFrom", "must not be after dateTo")
	}
	if f.Search != "" {
		// A generic plan of a prepared search cannot see the pattern and
		// would read the whole trigram index for a short term; as for the
		// product search, each search is planned with its own pattern.
		var out Listed
		err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			if err := tx.Exec(`SET LOCAL plan_cache_mode = force_custom_plan`).Error; err != nil {
				return err
			}
			var err error
			out, err = list(tx, f, p)
			return err
		}, &sql.TxOptions{ReadOnly: true})
		return out, err
	}
	return list(s.db.WithContext(ctx), f, p)
}

// list is List on db.
func list(db *gorm.DB, f Filter, p Page) (Listed, error) {
	total, totalArgs := f.count()

	// The page's ids first (an index-only scan), then the columns and line
	// counts of those rows only: with OFFSET in the same query Postgres
	// counted the lines of every skipped order too. One row more than the
	// page tells whether another page follows. The statement is written out
	// here rather than composed from GORM sub-queries: building those was
	// about a tenth of the API's CPU on this route.
	cond, args := f.conditions()
	var ids string
	var idArgs []any
	switch {
	case p.After != nil:
		ids = "SELECT id FROM orders WHERE " + cond + " AND (created_at, id) < (?, ?) ORDER BY " + listOrder + limitText(p.Limit+1, 0)
		idArgs = append(args, p.After.CreatedAt, p.After.ID)
	case p.Offset >= skipFrom && f.countedByDay() && len(storeday.SplitUTC(f.span()).Edges) == 0:
		ids, idArgs = f.skipTo(p.Offset, p.Limit+1)
	default:
		ids, idArgs = "SELECT id FROM orders WHERE "+cond+" ORDER BY "+listOrder+limitText(p.Limit+1, p.Offset), args
	}
	rows, err := scanPage(db.Raw(`SELECT o.id, o.order_number, o.status, o.payment_status, o.payment_method, o.customer_id, o.email, o.name,
			(SELECT count(*) FROM order_items i WHERE i.order_id = o.id) AS item_count,
			o.total, o.paid_total, o.refunded_total, o.currency, o.created_at, (`+total+`) AS matched
		FROM (`+ids+`) AS page JOIN orders o ON o.id = page.id
		ORDER BY o.created_at DESC, o.id DESC`, append(totalArgs, idArgs...)...))
	if err != nil {
		return Listed{}, fmt.Errorf("order.list: %w", err)
	}

	var out Listed
	switch {
	case len(rows) > 0:
		out.Total = rows[0].Matched
	case p.After == nil && p.Offset == 0:
		// Nothing matched in the statement's snapshot: the total is 0.
	default:
		// A page past the end: count alone. The page is empty, so no row
		// can be on it without being counted.
		if err := db.Raw("SELECT ("+total+")", totalArgs...).Scan(&out.Total).Error; err != nil {
			return Listed{}, fmt.Errorf("order.list: count: %w", err)
		}
	}
	if len(rows) > p.Limit {
		rows = rows[:p.Limit]
		last := rows[len(rows)-1]
		out.Next = &Position{CreatedAt: last.CreatedAt, ID: last.ID}
	}
	out.Rows = make([]Summary, len(rows))
	for i, r := range rows {
		out.Rows[i] = r.Summary
	}
	return out, nil
}

// scanPage runs q (the columns of listRow, in its order) and scans its rows
// by position: GORM's reflective Scan into structs was a visible share of
// the API's CPU per list request (measured in
// docs/BENCHMARKS.md, "Figures behind code comments").
func scanPage(q *gorm.DB) ([]listRow, error) {
	cur, err := q.Rows()
	if err != nil {
		return nil, err
	}
	defer cur.Close()
	var rows []listRow
	for cur.Next() {
		var r listRow
		if err := cur.Scan(&r.ID, &r.OrderNumber, &r.Status, &r.PaymentStatus, &r.PaymentMethod, &r.CustomerID, &r.Email, &r.Name,
			&r.ItemCount, &r.Total, &r.PaidTotal, &r.RefundedTotal, &r.Currency, &r.CreatedAt, &r.Matched); err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, cur.Err()
}

// conditions is f as a SQL condition on orders and its arguments.
func (f Filter) conditions() (string, []any) {
	conds, args := []string{"TRUE"}, []any{}
	add := func(cond string, arg any) { conds, args = append(conds, cond), append(args, arg) }
	if f.Status != "" {
		add("status = ?", f.Status)
	}
	switch {
	case f.PaymentMethod == models.PaymentCOD && f.PaymentStatus == models.PaymentPending:
		// The COD orders to collect, as constants: the planner proves the
		// predicate of their partial index (migrations/00058) only against
		// constants, so with parameters it planned every call anew.
		conds = append(conds, "payment_method = 'cod' AND payment_status = 'pending'")
	default:
		if f.PaymentMethod != "" {
			add("payment_method = ?", f.PaymentMethod)
		}
		if f.PaymentStatus != "" {
			add("payment_status = ?", f.PaymentStatus)
		}
	}
	if f.CustomerID != nil {
		add("customer_id = ?", *f.CustomerID)
	}
	if n := f.orderNumber(); n != "" {
		add("order_number = ?", n)
	}
	if term := searchTerm(f.Search); len(term) == nationalDigits && isDigits(term) {
		// A whole phone number: its orders by the index of their phones'
		// national numbers (migrations/00067).
		add("right(regexp_replace(phone, '[^0-9]', '', 'g'), 10) = ?", term)
	} else if f.Search != "" {
		// order_search is kept by triggers of orders (migrations/00027) and
		// indexed by trigrams; LikeContains escapes with backslash, LIKE's
		// default escape.
		add("id IN (SELECT order_id FROM order_search WHERE search_text LIKE shop_fold(?))", database.LikeContains(term))
	}
	if f.IDs != nil {
		add("id IN ?", f.IDs)
	}
	span := f.span()
	if span.From != nil {
		add("created_at >= ?", *span.From)
	}
	if span.To != nil {
		add("created_at < ?", *span.To)
	}
	return strings.Join(conds, " AND "), args
}

func (f Filter) orderNumber() string { return strings.ToUpper(strings.TrimSpace(f.OrderNumber)) }

// searchTerm is what a search looks for in the orders' search text. A
// search written as a phone number (digits with spaces, dashes, dots,
// brackets or a leading +, at least phoneDigits of them) is looked for as
// the national number the search text holds (migrations/00057): its
// digits, the last ten when a country code or a trunk 0 makes more. Any
// other search is looked for as written.
func searchTerm(s string) string {
	var digits []byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits = append(digits, c)
		case c == ' ' || c == '-' || c == '.' || c == '(' || c == ')' || (c == '+' && i == 0):
		default:
			return s
		}
	}
	if len(digits) < phoneDigits {
		return s
	}
	if len(digits) > nationalDigits {
		digits = digits[len(digits)-nationalDigits:]
	}
	return string(digits)
}

// nationalDigits is the length of an Indian national number: a search of
// that many digits (after searchTerm) is a whole phone number.
const nationalDigits = 10

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// phoneDigits is the fewest digits a search needs to be read as a phone
// number: fewer are more likely part of an order number ("000123"), which
// is looked for as written.
const phoneDigits = 7

// skipFrom is the smallest offset worth a day-counter skip (skipTo): below
// it, walking the index costs less than reading the counters.
var skipFrom = 1000

// listOrder is the list's order, newest first; every filter's index has it.
const listOrder = "created_at DESC, id DESC"

// countedByDay reports whether the day counters count f's matches: every
// filter but a customer, an order number, a search or ids, which bound the
// matches by themselves (a search through its index), and a payment method
// or status, which the day counters do not count (the payment counters do,
// without dates: countedByPayment).
func (f Filter) countedByDay() bool {
	return f.CustomerID == nil && f.orderNumber() == "" && f.Search == "" && f.IDs == nil &&
		f.PaymentMethod == "" && f.PaymentStatus == ""
}

// dayCounts returns the condition on order_day_counts selecting the
// counter rows of the whole UTC days inside f's dates and of its status,
// and its arguments (only when f.countedByDay). The counters keep UTC days;
// the store's days of a zone off UTC also take the edges that count adds.
func (f Filter) dayCounts() (string, []any) {
	conds, args := []string{"TRUE"}, []any{}
	split := storeday.SplitUTC(f.span())
	if split.NoDays {
		conds = append(conds, "FALSE")
	}
	if split.FirstDay != nil {
		conds, args = append(conds, "day >= ?"), append(args, split.FirstDay.Format(time.DateOnly))
	}
	if split.EndDay != nil {
		conds, args = append(conds, "day < ?"), append(args, split.EndDay.Format(time.DateOnly))
	}
	if f.Status != "" {
		conds, args = append(conds, "status = ?"), append(args, f.Status)
	}
	return strings.Join(conds, " AND "), args
}

// skipTo returns the statement selecting the ids of the orders matching f
// from position offset on, in list order, and its arguments, without
// walking the index past every order before it. The day counters (kept in
// the transaction of every order change, so read in the statement's
// snapshot they agree with the rows) give the newest UTC day whose orders
// reach past offset and how many matching orders are newer than that day;
// the scan starts at that day's end and skips only the rest of the offset
// within the day. Page 500 of 100k orders reads
// about one day of index entries instead of 10,000 (docs/DECISIONS.md,
// "Order list totals"). Past the last order it selects no rows.
func (f Filter) skipTo(offset, limit int) (string, []any) {
	// The counters summed per day, newest first, with a running total: the
	// first day whose total passes offset is where the page starts, and the
	// total before it is how many newer orders the offset skips. The days
	// are grouped in the primary key's order (day first), read backwards, so
	// the LIMIT stops the scan at that day: page 500 of 100k orders over 91
	// days reads 10 days' rows, not all of them, and a shop's years of days
	// cost no more. No outer ORDER BY: the rows reach the LIMIT newest day
	// first already, and one made the planner aggregate and sort every day
	// again, which cost the day statement more than half again its time
	// (measured in
	// docs/BENCHMARKS.md, "Figures behind code comments").
	days, dayArgs := f.dayCounts()
	cond, args := f.conditions()
	// The offset is an expression, so it is a parameter; the limit is a
	// literal, as the list's others are (limitText), so Postgres can reuse
	// the statement's plan.
	return `WITH start AS MATERIALIZED (
			SELECT (day + 1)::timestamp AT TIME ZONE 'UTC' AS until, (cum - n)::bigint AS newer
			FROM (SELECT day, n, sum(n) OVER (ORDER BY day DESC) AS cum
				FROM (SELECT day, sum(n) AS n FROM order_day_counts WHERE ` + days + `
					GROUP BY day ORDER BY day DESC) d) c
			WHERE cum > ? LIMIT 1)
		SELECT id FROM orders WHERE ` + cond + ` AND created_at < (SELECT until FROM start)
		ORDER BY ` + listOrder + ` OFFSET ? - (SELECT newer FROM start) LIMIT ` + strconv.Itoa(limit),
		append(append(append(dayArgs, offset), args...), offset)
}

// countedByPayment reports whether the payment counters (migrations/00068)
// count f's matches: a payment method, a payment status or both, and no
// other filter.
func (f Filter) countedByPayment() bool {
	return (f.PaymentMethod != "" || f.PaymentStatus != "") && f.Status == "" && f.From == nil && f.To == nil &&
		f.CustomerID == nil && f.orderNumber() == "" && f.Search == "" && f.IDs == nil
}

// count returns a statement of one number, how many orders match f, and
// its arguments. The counter tables that triggers keep in every order
// change's transaction (migrations/00011_order_counts.sql) answer the
// filters that index counts cannot bound: none or a status reads a few
// shard rows a status; dates read a few a day and status, however many
// orders the days hold; a payment method or status alone (the COD orders
// still to collect) a few rows of its own counters. A customer, an order
// number or a search bounds the matches by itself (a customer's orders;
// one order; the search's matches), so those are counted from the indexes;
// a payment filter with another filter counts the orders.
func (f Filter) count() (string, []any) {
	switch {
	case f.countedByPayment():
		q, args := "SELECT coalesce(sum(n), 0) FROM order_payment_counts WHERE TRUE", []any{}
		if f.PaymentMethod != "" {
			q, args = q+" AND payment_method = ?", append(args, f.PaymentMethod)
		}
		if f.PaymentStatus != "" {
			q, args = q+" AND payment_status = ?", append(args, f.PaymentStatus)
		}
		return q, args
	case !f.countedByDay():
		cond, args := f.conditions()
		return "SELECT count(*) FROM orders WHERE " + cond, args
	case f.From == nil && f.To == nil && f.Status == "":
		return "SELECT coalesce(sum(n), 0) FROM order_counts", nil
	case f.From == nil && f.To == nil:
		return "SELECT coalesce(sum(n), 0) FROM order_counts WHERE status = ?", []any{f.Status}
	}
	days, args := f.dayCounts()
	q := "SELECT coalesce(sum(n), 0) FROM order_day_counts WHERE " + days
	// The parts of the store's first and last days outside whole UTC days
	// (at most a day of orders each, through orders_created_idx).
	for _, e := range storeday.SplitUTC(f.span()).Edges {
		q = "(" + q + ") + (SELECT count(*) FROM orders WHERE created_at >= ? AND created_at < ?"
		args = append(args, e[0], e[1])
		if f.Status != "" {
			q += " AND status = ?"
			args = append(args, f.Status)
		}
		q += ")"
	}
	return q, args
}

// limitText is a LIMIT and OFFSET clause with the numbers in the text, as
// GORM's are here (database.literalLimit): Postgres reuses the plan of a
// statement whose limit it can see. Only integers reach the text.
func limitText(limit, offset int) string {
	s := " LIMIT " + strconv.Itoa(limit)
	if offset > 0 {
		s += " OFFSET " + strconv.Itoa(offset)
	}
	return s
}
