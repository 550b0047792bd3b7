package discount

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Admin creates, reads, updates and deletes discounts for the administrator
// API. Evaluation stays with Evaluate; Admin only keeps the rows right.
type Admin struct {
	db *gorm.DB
}

// NewAdmin returns the discount administration service on db.
func NewAdmin(db *gorm.DB) *Admin { return &Admin{db: db} }

// Detail is a discount with the products and categories a PRODUCT-scope
// discount is limited to.
type Detail struct {
	models.Discount
	ProductIDs  []uuid.UUID
	CategoryIDs []uuid.UUID
}

// Patch is a partial update: absent fields are unchanged. code,
// usageLimit, customerUsageLimit, startDate and endDate may be null.
// productIds and categoryIds, when present, replace the lists.
type Patch struct {
	Code               patch.Field[string]
	Description        patch.Field[string]
	Type               patch.Field[string]
	ValueType          patch.Field[string]
	Value              patch.Field[money.Amount]
	ApplicationType    patch.Field[string]
	Scope              patch.Field[string]
	MinOrderAmount     patch.Field[money.Amount]
	UsageLimit         patch.Field[int]
	CustomerUsageLimit patch.Field[int]
	StartDate          patch.Field[time.Time]
	EndDate            patch.Field[time.Time]
	IsActive           patch.Field[bool]
	ProductIDs         patch.Field[[]uuid.UUID]
	CategoryIDs        patch.Field[[]uuid.UUID]
	// The settings of a promotion type and combinesWith; when the type
	// changes, the settings of the old type are dropped.
	Buy             patch.Field[models.PromotionTargets]
	Get             patch.Field[models.PromotionGet]
	MaxApplications patch.Field[int]
	Tiers           patch.Field[[]models.PromotionTier]
	MinSubtotal     patch.Field[money.Amount]
	ZoneIDs         patch.Field[[]uuid.UUID]
	CombinesWith    patch.Field[models.CombinesWith]
}

const resDiscount = "discount"

func translate(err error) error {
	if database.IsUnique(err) && database.Constraint(err) == "discounts_code_key" {
		return apperr.Wrap(apperr.Conflict, "a discount with this code already exists", err).
			WithDetails(map[string]any{"field": "code", "issue": "already exists"})
	}
	return database.Translate(err, resDiscount)
}

// Create validates and stores a discount. Errors: VALIDATION_ERROR (a
// field; productIds or categoryIds naming rows that do not exist), CONFLICT
// (code taken, compared without case).
func (a *Admin) Create(ctx context.Context, f Fields) (*Detail, error) {
	if id, ok := idempotency.RecordedRow(ctx); ok {
		return a.Get(ctx, id)
	}
	if err := f.validate(); err != nil {
		return nil, err
	}
	d := models.Discount{ID: uuid.New()}
	apply(&d, f)
	err := a.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := checkTargets(tx, f); err != nil {
			return err
		}
		if err := checkRuleTargets(tx, f.Rules); err != nil {
			return err
		}
		if err := tx.Create(&d).Error; err != nil {
			return err
		}
		if err := writeTargets(tx, d.ID, f); err != nil {
			return err
		}
		return idempotency.RecordRow(ctx, tx, d.ID)
	})
	if err != nil {
		return nil, translate(err)
	}
	changed()
	return a.Get(ctx, d.ID)
}

// apply copies the client-settable fields onto d.
func apply(d *models.Discount, f Fields) {
	d.Code, d.Description, d.Type, d.Value = f.Code, f.Description, f.Type, f.Value
	d.ApplicationType, d.Scope, d.MinOrderAmount = f.ApplicationType, f.Scope, f.MinOrderAmount
	d.UsageLimit, d.CustomerUsageLimit, d.StartDate, d.EndDate, d.IsActive = f.UsageLimit, f.CustomerUsageLimit, f.StartDate, f.EndDate, f.IsActive
	d.Rules, d.CombinesWith = f.Rules, f.CombinesWith
}

// Get returns a discount with its targets. Errors: NOT_FOUND.
func (a *Admin) Get(ctx context.Context, id uuid.UUID) (*Detail, error) {
	db := a.db.WithContext(ctx)
	var d Detail
	if err := db.Where("id = ?", id).Take(&d.Discount).Error; err != nil {
		return nil, translate(err)
	}
	details, err := withTargets(db, []models.Discount{d.Discount})
	if err != nil {
		return nil, err
	}
	return &details[0], nil
}

// Update applies a partial update, then checks the whole discount again
// (type and value, MANUAL needs a code, the date window, the scope's
// targets). usageCount is never written here. Errors: NOT_FOUND,
// VALIDATION_ERROR, CONFLICT (code taken).
func (a *Admin) Update(ctx context.Context, id uuid.UUID, p Patch) (*Detail, error) {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return a.Get(ctx, id)
	}
	for field, null := range map[string]bool{"description": p.Description.IsNull(), "type": p.Type.IsNull(),
		"valueType": p.ValueType.IsNull(), "value": p.Value.IsNull(), "applicationType": p.ApplicationType.IsNull(),
		"scope": p.Scope.IsNull(), "minOrderAmount": p.MinOrderAmount.IsNull(), "isActive": p.IsActive.IsNull()} {
		if null {
			return nil, apperr.Invalid(field, "must not be null")
		}
	}
	err := a.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var cur models.Discount
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).Take(&cur).Error; err != nil {
			return err
		}
		details, err := withTargets(tx, []models.Discount{cur})
		if err != nil {
			return err
		}
		f := merge(details[0], p)
		if err := f.validate(); err != nil {
			return err
		}
		if err := checkTargets(tx, f); err != nil {
			return err
		}
		if err := checkRuleTargets(tx, f.Rules); err != nil {
			return err
		}
		apply(&cur, f)
		cur.UpdatedAt = time.Now().UTC()
		if err := tx.Model(&models.Discount{}).Where("id = ?", id).Updates(map[string]any{
			"code": cur.Code, "description": cur.Description, "type": cur.Type, "value": cur.Value,
			"application_type": cur.ApplicationType, "scope": cur.Scope, "min_order_amount": cur.MinOrderAmount,
			"usage_limit": cur.UsageLimit, "customer_usage_limit": cur.CustomerUsageLimit, "start_date": cur.StartDate,
			"end_date": cur.EndDate, "is_active": cur.IsActive, "updated_at": cur.UpdatedAt,
			"rules": cur.Rules, "combines_with": cur.CombinesWith,
		}).Error; err != nil {
			return err
		}
		if err := writeTargets(tx, id, f); err != nil {
			return err
		}
		return idempotency.RecordRow(ctx, tx, id)
	})
	if err != nil {
		return nil, translate(err)
	}
	changed()
	return a.Get(ctx, id)
}

// merge returns the discount's fields with the patch applied. A type (or
// valueType) given alone sets both synonyms.
func merge(cur Detail, p Patch) Fields {
	f := Fields{Code: cur.Code, Description: cur.Description, Type: cur.Type, ValueType: cur.Type, Value: cur.Value,
		ApplicationType: cur.ApplicationType, Scope: cur.Scope, MinOrderAmount: cur.MinOrderAmount,
		UsageLimit: cur.UsageLimit, CustomerUsageLimit: cur.CustomerUsageLimit, StartDate: cur.StartDate,
		EndDate: cur.EndDate, IsActive: cur.IsActive, ProductIDs: cur.ProductIDs, CategoryIDs: cur.CategoryIDs,
		Rules: cur.Rules, CombinesWith: cur.CombinesWith}
	if p.Code.Present() {
		f.Code = p.Code.Ptr()
	}
	if v, ok := p.Description.Get(); ok {
		f.Description = v
	}
	t, hasT := p.Type.Get()
	vt, hasVT := p.ValueType.Get()
	switch {
	case hasT && hasVT:
		f.Type, f.ValueType = t, vt
	case hasT:
		f.Type, f.ValueType = t, t
	case hasVT:
		f.Type, f.ValueType = vt, vt
	}
	if f.Type != cur.Type {
		f.Rules = models.DiscountRules{}
		if isPromotion(f.Type) {
			f.Value = 0
		}
	}
	if v, ok := p.Value.Get(); ok {
		f.Value = int64(v)
	}
	mergeRules(&f, p)
	if v, ok := p.ApplicationType.Get(); ok {
		f.ApplicationType = v
	}
	if v, ok := p.Scope.Get(); ok {
		f.Scope = v
	}
	if v, ok := p.MinOrderAmount.Get(); ok {
		f.MinOrderAmount = v
	}
	if p.UsageLimit.Present() {
		f.UsageLimit = p.UsageLimit.Ptr()
	}
	if p.CustomerUsageLimit.Present() {
		f.CustomerUsageLimit = p.CustomerUsageLimit.Ptr()
	}
	if p.StartDate.Present() {
		f.StartDate = p.StartDate.Ptr()
	}
	if p.EndDate.Present() {
		f.EndDate = p.EndDate.Ptr()
	}
	if v, ok := p.IsActive.Get(); ok {
		f.IsActive = v
	}
	if f.Scope == models.DiscountScopeOrder {
		// moving to ORDER scope drops the targets unless they are sent
		f.ProductIDs, f.CategoryIDs = nil, nil
	}
	if p.ProductIDs.Present() {
		f.ProductIDs, _ = p.ProductIDs.Get()
	}
	if p.CategoryIDs.Present() {
		f.CategoryIDs, _ = p.CategoryIDs.Get()
	}
	return f
}

// Delete removes a discount and its usage records. Orders that used it keep
// its code and amount. To stop a code while keeping its history, set
// isActive false instead. A keyed retry of a delete that committed answers
// as it did. Errors: NOT_FOUND.
func (a *Admin) Delete(ctx context.Context, id uuid.UUID) error {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return nil
	}
	err := a.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Delete(&models.Discount{}, "id = ?", id)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return apperr.Missing(resDiscount)
		}
		return idempotency.RecordRow(ctx, tx, id)
	})
	if err == nil {
		changed()
	}
	return translate(err)
}

// ListFilter selects a page of discounts, newest first.
type ListFilter struct {
	IsActive        *bool
	ApplicationType string
	paging.Window
}

// List returns a page of discounts with their targets, and the total.
// Errors: VALIDATION_ERROR (applicationType).
func (a *Admin) List(ctx context.Context, f ListFilter) ([]Detail, int64, error) {
	if f.ApplicationType != "" && f.ApplicationType != models.DiscountManual && f.ApplicationType != models.DiscountAutomatic {
		return nil, 0, apperr.Invalid("applicationType", "must be one of: MANUAL, AUTOMATIC")
	}
	where := func() *gorm.DB {
		q := a.db.WithContext(ctx).Model(&models.Discount{})
		if f.IsActive != nil {
			q = q.Where("is_active = ?", *f.IsActive)
		}
		if f.ApplicationType != "" {
			q = q.Where("application_type = ?", f.ApplicationType)
		}
		return q
	}
	var rows []models.Discount
	total, err := paging.Newest(where, f.Window, &rows)
	if err != nil {
		return nil, 0, translate(err)
	}
	details, err := withTargets(a.db.WithContext(ctx), rows)
	return details, total, err
}

// withTargets loads the product and category ids of each discount.
func withTargets(db *gorm.DB, ds []models.Discount) ([]Detail, error) {
	out := make([]Detail, len(ds))
	if len(ds) == 0 {
		return out, nil
	}
	ids := make([]uuid.UUID, len(ds))
	at := make(map[uuid.UUID]int, len(ds))
	for i, d := range ds {
		ids[i], at[d.ID] = d.ID, i
		out[i] = Detail{Discount: d, ProductIDs: []uuid.UUID{}, CategoryIDs: []uuid.UUID{}}
	}
	var ps []models.DiscountProduct
	if err := db.Where("discount_id IN ?", ids).Order("product_id").Find(&ps).Error; err != nil {
		return nil, fmt.Errorf("discount.targets: %w", err)
	}
	for _, p := range ps {
		out[at[p.DiscountID]].ProductIDs = append(out[at[p.DiscountID]].ProductIDs, p.ProductID)
	}
	var cs []models.DiscountCategory
	if err := db.Where("discount_id IN ?", ids).Order("category_id").Find(&cs).Error; err != nil {
		return nil, fmt.Errorf("discount.targets: %w", err)
	}
	for _, c := range cs {
		out[at[c.DiscountID]].CategoryIDs = append(out[at[c.DiscountID]].CategoryIDs, c.CategoryID)
	}
	return out, nil
}

// checkTargets returns a VALIDATION_ERROR naming the first product or
// category id that does not exist.
func checkTargets(tx *gorm.DB, f Fields) error {
	for _, t := range []struct {
		field, table, noun string
		ids                []uuid.UUID
	}{{"productIds", "products", "product", f.ProductIDs}, {"categoryIds", "categories", "category", f.CategoryIDs}} {
		if len(t.ids) == 0 {
			continue
		}
		var known []uuid.UUID
		if err := tx.Table(t.table).Where("id IN ?", t.ids).Pluck("id", &known).Error; err != nil {
			return fmt.Errorf("discount.check_targets: %w", err)
		}
		found := make(map[uuid.UUID]bool, len(known))
		for _, id := range known {
			found[id] = true
		}
		for _, id := range t.ids {
			if !found[id] {
				return apperr.Invalid(t.field, t.noun+" "+id.String()+" does not exist").
					WithDetails(map[string]any{"field": t.field, "issue": "does not exist", "id": id.String()})
			}
		}
	}
	return nil
}

// writeTargets replaces a discount's product and category rows.
func writeTargets(tx *gorm.DB, id uuid.UUID, f Fields) error {
	if err := tx.Where("discount_id = ?", id).Delete(&models.DiscountProduct{}).Error; err != nil {
		return err
	}
	if err := tx.Where("discount_id = ?", id).Delete(&models.DiscountCategory{}).Error; err != nil {
		return err
	}
	if len(f.ProductIDs) > 0 {
		rows := make([]models.DiscountProduct, len(f.ProductIDs))
		for i, p := range f.ProductIDs {
			rows[i] = models.DiscountProduct{DiscountID: id, ProductID: p}
		}
		if err := tx.Create(&rows).Error; err != nil {
			return err
		}
	}
	if len(f.CategoryIDs) > 0 {
		rows := make([]models.DiscountCategory, len(f.CategoryIDs))
		for i, c := range f.CategoryIDs {
			rows[i] = models.DiscountCategory{DiscountID: id, CategoryID: c}
		}
		return tx.Create(&rows).Error
	}
	return nil
}

// mergeRules applies the patch's promotion settings: a field present
// replaces the current one, null clears it.
func mergeRules(f *Fields, p Patch) {
	if p.Buy.Present() {
		f.Rules.Buy = p.Buy.Ptr()
	}
	if p.Get.Present() {
		f.Rules.Get = p.Get.Ptr()
	}
	if p.MaxApplications.Present() {
		f.Rules.MaxApplications = p.MaxApplications.Ptr()
	}
	if p.Tiers.Present() {
		f.Rules.Tiers, _ = p.Tiers.Get()
	}
	if p.MinSubtotal.Present() {
		f.Rules.MinSubtotal, _ = p.MinSubtotal.Get()
	}
	if p.ZoneIDs.Present() {
		f.Rules.ZoneIDs, _ = p.ZoneIDs.Get()
	}
	if v, ok := p.CombinesWith.Get(); ok {
		f.CombinesWith = v
	}
}
