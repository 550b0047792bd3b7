package catalog

import (
	"github.com/gocommerce/shop/models"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

// ListSQLForTest returns the page query ListProducts runs for f, with its
// values inlined, for EXPLAIN in tests. The application's dialect never
// inlines values (database.sqlOnly), so the driver's own renderer does it
// here.
func ListSQLForTest(db *gorm.DB, f ProductFilter) string {
	var rows []models.Product
	stmt := f.page(db.Session(&gorm.Session{DryRun: true})).Find(&rows).Statement
	return postgres.Dialector{}.Explain(stmt.SQL.String(), stmt.Vars...)
}
