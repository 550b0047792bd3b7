package analytics

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/storeday"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// OrdersReport is the order analytics of a range.
type OrdersReport struct {
	Range Range
	// TotalOrders counts every order, cancelled ones included.
	TotalOrders int64
	// TotalRevenue is totals of non-cancelled orders minus their refunds.
	TotalRevenue money.Amount
	// AverageOrderValue is TotalRevenue over the non-cancelled orders,
	// rounded half up to the paisa.
	AverageOrderValue money.Amount
	OrdersByStatus    map[string]int64
	// RevenueByDay has one entry per date of Range, zero-filled.
	RevenueByDay []DayRevenue
	Currency     string
	// PaymentMethods are the range's orders that were not cancelled and
	// their amounts (totals less refunds), per way of paying, every method
	// always present (docs/DECISIONS.md "Cash on delivery and offline
	// payments"), from the rollups: they add up to the revenue's orders and
	// TotalRevenue.
	PaymentMethods []MethodTotal
	// CODOutstanding is every COD order neither paid nor cancelled, whenever
	// placed: the cash couriers still owe or have yet to collect.
	CODOutstanding Outstanding
}

// MethodTotal is the orders of one payment method and their amount.
type MethodTotal struct {
	Method string       `json:"method"`
	Orders int64        `json:"orders"`
	Amount money.Amount `json:"amount"`
}

// Outstanding is a count of orders and the amount they still owe.
type Outstanding struct {
	Orders int64        `json:"orders"`
	Amount money.Amount `json:"amount"`
}

// DayRevenue is the revenue of one date.
type DayRevenue struct {
	Date    time.Time
	Revenue money.Amount
}

// Orders reads the order analytics of r: revenue from the rollups, the
// order counts (total and by status) from the order counters.
func (s *Service) Orders(ctx context.Context, r Range) (*OrdersReport, error) {
	db := s.db.WithContext(ctx)
	var days []models.AnalyticsDaily
	if err := db.Where("day >= ?::date AND day <= ?::date", date(r.From), date(r.To)).Order("day").Find(&days).Error; err != nil {
		return nil, fmt.Errorf("analytics.orders: %w", err)
	}
	var statuses []struct {
		Status string
		Orders int64
	}
	// The day counters move in the transaction of every order change
	// (migrations 00011, 00021), so the breakdown is exact at once and a
	// move between two non-cancelled statuses needs no rollup (Affects).
	// They keep UTC days: the store's days of a zone off UTC take the whole
	// UTC days inside them from the counters and count the edges (at most a
	// day of orders each) status by status, each a range of
	// orders_status_idx read without the table: grouping the edge's orders
	// by status fetched each row from the table.
	//
	// The dates and times are literals of the statement, not parameters:
	// with parameters Postgres planned the statement's fifteen parts again
	// at every call, and a store's reports name a few ranges a day, each
	// planned once per connection (both measured in docs/BENCHMARKS.md,
	// "Figures behind code comments"). They are formatted here from time
	// values, never from the request's text.
	split := storeday.SplitUTC(storeday.Span{From: ptr(storeday.Start(r.From, s.zone())), To: ptr(storeday.End(r.To, s.zone()))})
	q := `SELECT status, n FROM order_day_counts WHERE day >= ` + sqlDate(*split.FirstDay) + ` AND day < ` + sqlDate(*split.EndDay)
	if split.NoDays {
		q = `SELECT status, n FROM order_day_counts WHERE FALSE`
	}
	for _, e := range split.Edges {
		q += ` UNION ALL SELECT s.status, (SELECT count(*) FROM orders o WHERE o.status = s.status
				AND o.created_at >= ` + sqlTime(e[0]) + ` AND o.created_at < ` + sqlTime(e[1]) + `)
			FROM ` + orderStatusRows + ` AS s (status)`
	}
	if err := db.Raw(`SELECT status, sum(n) AS orders FROM (` + q + `) c GROUP BY status`).Scan(&statuses).Error; err != nil {
		return nil, fmt.Errorf("analytics.orders: %w", err)
	}

	rep := &OrdersReport{Range: r, OrdersByStatus: map[string]int64{}, Currency: s.currency}
	for _, st := range models.OrderStatuses {
		rep.OrdersByStatus[st] = 0
	}
	for _, st := range statuses {
		rep.OrdersByStatus[st.Status] = st.Orders
		rep.TotalOrders += st.Orders // from the counters too: always the breakdown's sum
	}
	byDay := make(map[string]money.Amount, len(days))
	var revenueOrders int64
	for _, d := range days {
		revenue := d.Gross - d.Refunds
		byDay[date(d.Day)] = revenue
		rep.TotalRevenue += revenue
		revenueOrders += int64(d.RevenueOrders)
	}
	rep.RevenueByDay = make([]DayRevenue, 0, r.Days())
	for d := r.From; !d.After(r.To); d = d.AddDate(0, 0, 1) {
		rep.RevenueByDay = append(rep.RevenueByDay, DayRevenue{Date: d, Revenue: byDay[date(d)]})
	}
	if revenueOrders > 0 {
		rep.AverageOrderValue = money.MulDivHalfUp(rep.TotalRevenue, 1, revenueOrders)
	}
	if err := s.paymentMethods(ctx, r, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// orderStatusRows is every order status as a VALUES list of SQL literals
// (constants of the model, written into the statement so its plan is kept).
var orderStatusRows = func() string {
	rows := make([]string, len(models.OrderStatuses))
	for i, st := range models.OrderStatuses {
		rows[i] = "('" + st + "')"
	}
	return "(VALUES " + strings.Join(rows, ", ") + ")"
}()

// sqlDate is day as an SQL date literal.
func sqlDate(day time.Time) string { return "'" + date(day) + "'::date" }

// sqlTime is t as an SQL timestamptz literal, to the microsecond Postgres
// keeps.
func sqlTime(t time.Time) string {
	return "'" + t.UTC().Format("2006-01-02T15:04:05.999999Z") + "'::timestamptz"
}

// paymentMethods fills rep's PaymentMethods (orders created in r, from
// the rollups, as revenue is) and CODOutstanding (every open unpaid COD
// order, from the partial index that holds them) with one statement. The
// outstanding part names its constants in the SQL: against parameters the
// planner cannot prove the partial index's predicate, so it planned the
// statement anew on every call instead of keeping one plan per connection.
func (s *Service) paymentMethods(ctx context.Context, r Range, rep *OrdersReport) error {
	var rows []MethodTotal
	if err := s.db.WithContext(ctx).Raw(`SELECT method, sum(orders)::bigint AS orders, sum(amount)::bigint AS amount
		FROM analytics_daily_payment WHERE day >= ?::date AND day <= ?::date
		GROUP BY method
		UNION ALL
		SELECT ?, count(*), COALESCE(sum(total - paid_total), 0)::bigint
		FROM orders WHERE payment_method = 'cod' AND payment_status = 'pending' AND status <> 'cancelled'`,
		date(r.From), date(r.To), codOutstanding).Scan(&rows).Error; err != nil {
		return fmt.Errorf("analytics.payment_methods: %w", err)
	}
	by := map[string]MethodTotal{}
	for _, m := range rows {
		by[m.Method] = m
	}
	rep.PaymentMethods = nil
	for _, m := range []string{models.PaymentOnline, models.PaymentCOD, models.PaymentOffline} {
		t := by[m]
		t.Method = m
		rep.PaymentMethods = append(rep.PaymentMethods, t)
	}
	rep.CODOutstanding = Outstanding{Orders: by[codOutstanding].Orders, Amount: by[codOutstanding].Amount}
	return nil
}

// codOutstanding names the row of paymentMethods's statement that is no
// method but the open COD orders.
const codOutstanding = "cod outstanding"

// ProductsReport is the product analytics of a range.
type ProductsReport struct {
	Range           Range
	TopProducts     []ProductSales
	InventoryAlerts []InventoryAlert
	Currency        string
}

// ProductSales is one product's sales over a range.
type ProductSales struct {
	ProductID uuid.UUID
	Title     string
	Orders    int64
	UnitsSold int64
	Revenue   money.Amount
}

// InventoryAlert is a variant whose available stock is at or below its
// low-stock threshold.
type InventoryAlert struct {
	VariantID    uuid.UUID
	SKU          string
	CurrentStock int
	Threshold    int
}

// Report limits.
const (
	DefaultTopProducts = 10
	MaxTopProducts     = 100
	// MaxInventoryAlerts bounds the alert list; the lowest stock comes first.
	MaxInventoryAlerts = 100
)

// Products reads the best-selling products of r (by revenue, at most top)
// from the rollups, and the current low-stock variants: over every location,
// or at location *at when at is not nil. The same report is reused for
// ProductsMemoTTL; the caller must not change it. Errors: NOT_FOUND (at).
func (s *Service) Products(ctx context.Context, r Range, top int, at *uuid.UUID) (*ProductsReport, error) {
	key := date(r.From) + ".." + date(r.To) + "/" + strconv.Itoa(top)
	if at != nil {
		key += "@" + at.String()
	}
	return s.products.get(ctx, key, func(ctx context.Context) (*ProductsReport, error) {
		return s.productsReport(ctx, r, top, at)
	})
}

func (s *Service) productsReport(ctx context.Context, r Range, top int, at *uuid.UUID) (*ProductsReport, error) {
	db := s.db.WithContext(ctx)
	rep := &ProductsReport{Range: r, Currency: s.currency}
	// The title is the latest day's in the range (products get renamed),
	// looked up for the top rows only: sorting every product's days to
	// pick it (array_agg ORDER BY) tripled the cost over 10k products.
	from, to := date(r.From), date(r.To)
	if err := db.Raw(`WITH top AS (
			SELECT product_id, sum(orders) AS orders, sum(units) AS units_sold, sum(revenue)::bigint AS revenue
			FROM analytics_product_daily
			WHERE day >= ?::date AND day <= ?::date
			GROUP BY product_id
			ORDER BY revenue DESC, units_sold DESC, product_id
			LIMIT ?)
		SELECT top.product_id, latest.title, top.orders, top.units_sold, top.revenue
		FROM top CROSS JOIN LATERAL (
			SELECT title FROM analytics_product_daily d
			WHERE d.product_id = top.product_id AND d.day >= ?::date AND d.day <= ?::date
			ORDER BY d.day DESC LIMIT 1) latest
		ORDER BY top.revenue DESC, top.units_sold DESC, top.product_id`, from, to, top, from, to).Scan(&rep.TopProducts).Error; err != nil {
		return nil, fmt.Errorf("analytics.products: %w", err)
	}
	alerts, err := s.inventoryAlerts(ctx, at)
	if err != nil {
		return nil, err
	}
	rep.InventoryAlerts = alerts
	return rep, nil
}

// inventoryAlerts is LowStock, or the low-stock variants of location *at.
func (s *Service) inventoryAlerts(ctx context.Context, at *uuid.UUID) ([]InventoryAlert, error) {
	if at == nil {
		return s.LowStock(ctx, MaxInventoryAlerts)
	}
	if s.locations == nil {
		return nil, errors.New("analytics.inventory_alerts: no location stock")
	}
	low, err := s.locations.LowStockAt(ctx, *at, MaxInventoryAlerts)
	if err != nil {
		return nil, err
	}
	alerts := make([]InventoryAlert, len(low))
	for i, a := range low {
		alerts[i] = InventoryAlert{VariantID: a.VariantID, SKU: a.SKU, CurrentStock: a.Available, Threshold: a.Threshold}
	}
	return alerts, nil
}

// LowStock returns up to limit variants whose available stock (on hand less
// reserved and committed) is at or below their threshold (their own, else
// LOW_STOCK_THRESHOLD), lowest stock first.
func (s *Service) LowStock(ctx context.Context, limit int) ([]InventoryAlert, error) {
	var alerts []InventoryAlert
	err := s.db.WithContext(ctx).Raw(`SELECT id AS variant_id, sku,
			inventory - reserved - committed AS current_stock,
			COALESCE(low_stock_threshold, ?) AS threshold
		FROM variants
		WHERE inventory - reserved - committed <= COALESCE(low_stock_threshold, ?)
		ORDER BY current_stock, sku
		LIMIT ?`, s.lowStockThreshold, s.lowStockThreshold, limit).Scan(&alerts).Error
	if err != nil {
		return nil, fmt.Errorf("analytics.low_stock: %w", err)
	}
	return alerts, nil
}

func ptr[T any](v T) *T { return &v }
