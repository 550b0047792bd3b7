// Package customeradmin is the back office's side of customers: search and
// read them with their order figures, and change the fields an
// administrator owns (name, phone, active flag, customer group).
//
// Deactivating a customer takes effect at once: storefront authentication
// loads the customer on every request and refuses inactive ones, and login
// refuses them too.
package customeradmin

import (
	"context"
	"fmt"
	"strings"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// Service manages customers for administrators.
type Service struct {
	db       *gorm.DB
	currency string
}

// New returns the service; currency is STORE_CURRENCY.
func New(db *gorm.DB, currency string) *Service { return &Service{db: db, currency: currency} }

// searchExpr is the expression of the trigram index customers_search_idx;
// a LIKE on exactly this expression can use the index.
const searchExpr = `shop_fold(name || ' ' || email::text || ' ' || phone)`

// List returns one page of customers, newest first, matching search (a
// case- and accent-insensitive substring of name, email or phone) when
// given, and how many match in all.
func (s *Service) List(ctx context.Context, search string, page, limit int) ([]models.Customer, int64, error) {
	q := s.db.WithContext(ctx).Model(&models.Customer{})
	if search = strings.TrimSpace(search); search != "" {
		q = q.Where(searchExpr+` LIKE shop_fold(?)`, likePattern(search))
	}
	q = q.Session(&gorm.Session{})
	var rows []models.Customer
	offset := (page - 1) * limit
	if err := q.Order("created_at DESC, id DESC").Limit(limit).Offset(offset).Find(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("customeradmin.list: %w", err)
	}
	if len(rows) < limit && (len(rows) > 0 || offset == 0) {
		return rows, int64(offset + len(rows)), nil
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("customeradmin.list: count: %w", err)
	}
	return rows, total, nil
}

// likePattern escapes s for LIKE (default escape character \) and wraps it
// in % for a substring match.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(s) + "%"
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
func (s *Service) detail(db *gorm.DB, c models.Customer) (*Detail, error) {
	d := &Detail{Customer: c, Currency: s.currency}
	row := db.Raw(`SELECT count(*), COALESCE(sum(paid_total - refunded_total), 0)::bigint
		FROM orders WHERE customer_id = ?`, c.ID).Row()
	var spent int64
	if err := row.Scan(&d.OrderCount, &spent); err != nil {
		return nil, fmt.Errorf("customeradmin.detail: %w", err)
	}
	d.TotalSpent = money.Amount(spent)
	return d, nil
}
