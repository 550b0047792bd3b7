package customer

import (
	"context"
	"fmt"
	"strings"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// Admin is the back office's side of customers: search and read them with
// their order figures, and change the fields an administrator owns (name,
// phone, active flag, customer group).
//
// Deactivating a customer takes effect at once: storefront authentication
// loads the customer on every request and refuses inactive ones, and login
// refuses them too.
type Admin struct {
	db       *gorm.DB
	currency string
}

// NewAdmin returns the back office's customer service; currency is
// STORE_CURRENCY.
func NewAdmin(db *gorm.DB, currency string) *Admin { return &Admin{db: db, currency: currency} }

// searchExpr is the expression of the trigram index customers_search_idx;
// a LIKE on exactly this expression can use the index.
const searchExpr = `shop_fold(name || ' ' || email::text || ' ' || phone)`

// List returns one page of customers, newest first, matching search (a
// case- and accent-insensitive substring of name, email or phone) when
// given, and how many match in all.
func (s *Admin) List(ctx context.Context, search string, w paging.Window) ([]models.Customer, int64, error) {
	q := s.db.WithContext(ctx).Model(&models.Customer{})
	if search = strings.TrimSpace(search); search != "" {
		q = q.Where(searchExpr+` LIKE shop_fold(?)`, database.LikeContains(search))
	}
	q = q.Session(&gorm.Session{})
	var rows []models.Customer
	limit, offset := w.Limit, w.Offset
	if err := q.Order("created_at DESC, id DESC").Limit(limit).Offset(offset).Find(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("customer.admin_list: %w", err)
	}
	if len(rows) < limit && (len(rows) > 0 || offset == 0) {
		return rows, int64(offset + len(rows)), nil
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("customer.admin_list: count: %w", err)
	}
	return rows, total, nil
}

// Detail is a customer with its order figures.
type Detail struct {
	models.Customer
	// OrderCount counts every order of the customer, cancelled included.
	OrderCount int64
	// TotalSpent is what the customer paid less what was refunded, over all
	// its orders.
	TotalSpent money.Amount
	Currency   string
}

// detail loads customer id and its order figures with db.
func (s *Admin) detail(db *gorm.DB, c models.Customer) (*Detail, error) {
	d := &Detail{Customer: c, Currency: s.currency}
	row := db.Raw(`SELECT count(*), COALESCE(sum(paid_total - refunded_total), 0)::bigint
		FROM orders WHERE customer_id = ?`, c.ID).Row()
	var spent int64
	if err := row.Scan(&d.OrderCount, &spent); err != nil {
		return nil, fmt.Errorf("customer.admin_detail: %w", err)
	}
	d.TotalSpent = money.Amount(spent)
	return d, nil
}
