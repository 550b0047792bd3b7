package catalog

import (
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"gorm.io/gorm"
)

// Resource names used in NOT_FOUND messages.
const (
	resProduct       = "product"
	resVariant       = "variant"
	resCategory      = "category"
	resCollection    = "collection"
	resCustomerGroup = "customer group"
	resPriceList     = "price list"
)

// unknownRef is the VALIDATION_ERROR of a body field naming a row that does
// not exist (a category, group or variant id).
func unknownRef(field string) error {
	return apperr.Invalid(field, "does not exist")
}

// foreignKeys names the body field behind each foreign key a write may
// violate when the referenced row is deleted concurrently with the check.
var foreignKeys = map[string]string{
	"products_category_id_fkey":                   "categoryId",
	"categories_parent_id_fkey":                   "parentId",
	"product_group_prices_customer_group_id_fkey": "customerGroupOverrides",
	"price_lists_customer_group_id_fkey":          "customerGroupId",
	"price_list_rules_variant_id_fkey":            "rules",
}

// translate maps a driver error to a client error for resource: a foreign
// key on a referenced row is the VALIDATION_ERROR of its field, the rest as
// database.Translate does.
func translate(err error, resource string) error {
	if err == nil {
		return nil
	}
	if _, ok := apperr.As(err); ok {
		return err
	}
	if database.PgCode(err) == database.ForeignKeyViolation {
		if field, ok := foreignKeys[database.Constraint(err)]; ok {
			return unknownRef(field)
		}
	}
	return database.Translate(err, resource)
}

// exists reports whether table has a row with id; table comes from code.
func exists(tx *gorm.DB, table string, id any) (bool, error) {
	var ok bool
	if err := tx.Raw(`SELECT EXISTS (SELECT 1 FROM `+table+` WHERE id = ?)`, id).Scan(&ok).Error; err != nil {
		return false, fmt.Errorf("catalog.exists %s: %w", table, err)
	}
	return ok, nil
}
