package catalog

import (
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// ListSQLForTest returns the page query ListProducts runs for f, with its
// values inlined, for EXPLAIN in tests.
func ListSQLForTest(db *gorm.DB, f ProductFilter) string {
	return db.ToSQL(func(tx *gorm.DB) *gorm.DB {
		var rows []models.Product
		return f.page(tx).Find(&rows)
	})
}
