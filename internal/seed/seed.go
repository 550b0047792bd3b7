// Package seed fills a database with a demo shop: a category tree, active
// products with variants, stock and pictures, a customer group, a discount code,
// shipping (a default zone with standard and express methods), cash on
// delivery with a limit and a fee, and a super_admin. Running it again changes nothing but the admin's password
// (when asked), so `make run` can always print working credentials.
package seed

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/password"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Options size the demo shop.
type Options struct {
	// Products is the number of products (default 50).
	Products int
	// VariantsPerProduct is the number of variants of each (default 3).
	VariantsPerProduct int
	// AdminEmail is the demo admin's email (default admin@example.com).
	AdminEmail string
	// ResetAdminPassword gives an existing demo admin a new password.
	ResetAdminPassword bool
	// Images, when set, gives the first products pictures drawn locally
	// (their renditions are made by the worker).
	Images Uploader
}

// Result says what was seeded.
type Result struct {
	CatalogCreated bool
	Products       int
	Variants       int
	AdminEmail     string
	// AdminPassword is empty when the admin existed and was not reset.
	AdminPassword string
	DiscountCode  string
}

// Summary is the text printed by `shop seed` and `make run`.
func (r Result) Summary(port int) string {
	var b strings.Builder
	if r.CatalogCreated {
		fmt.Fprintf(&b, "Seeded demo shop: %d products, %d variants, discount code %s, shipping Standard (free from %s) and Express, cash on delivery up to %s (fee %s)\n",
			r.Products, r.Variants, r.DiscountCode, DemoFreeShippingAbove, DemoCODLimit, DemoCODFee)
	} else {
		b.WriteString("Demo shop already seeded\n")
	}
	if r.AdminPassword != "" {
		fmt.Fprintf(&b, "Admin login: %s / %s  (POST http://localhost:%d/api/v1/admin/auth/login)", r.AdminEmail, r.AdminPassword, port)
	} else {
		fmt.Fprintf(&b, "Admin %s exists; password unchanged", r.AdminEmail)
	}
	return b.String()
}

// DemoDiscountCode is the seeded 10 % order discount.
const DemoDiscountCode = "WELCOME10"

// Run seeds db. It is idempotent: the catalog is created once.
func Run(ctx context.Context, db *gorm.DB, opt Options) (*Result, error) {
	if opt.Products <= 0 {
		opt.Products = 50
	}
	if opt.VariantsPerProduct <= 0 {
		opt.VariantsPerProduct = 3
	}
	if opt.AdminEmail == "" {
		opt.AdminEmail = "admin@example.com"
	}
	res := &Result{AdminEmail: opt.AdminEmail, DiscountCode: DemoDiscountCode}
	db = db.WithContext(ctx)
	err := db.Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&models.Category{}).Where("slug = ?", "apparel").Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
		res.CatalogCreated = true
		return seedCatalog(tx, opt, res)
	})
	if err != nil {
		return nil, fmt.Errorf("seed.catalog: %w", err)
	}
	if res.CatalogCreated && opt.Images != nil {
		if err := seedImages(ctx, db, opt.Images); err != nil {
			return nil, fmt.Errorf("seed.images: %w", err)
		}
	}
	if err := seedAdmin(db, opt, res); err != nil {
		return nil, fmt.Errorf("seed.admin: %w", err)
	}
	return res, nil
}

func seedAdmin(db *gorm.DB, opt Options, res *Result) error {
	var a models.Admin
	err := db.Where("email = ?", opt.AdminEmail).Take(&a).Error
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		return err
	}
	exists := err == nil
	if exists && !opt.ResetAdminPassword {
		return nil
	}
	pw := randomPassword()
	hash, err := password.Hash(pw)
	if err != nil {
		return err
	}
	res.AdminPassword = pw
	if exists {
		return db.Model(&a).Updates(map[string]any{"password_hash": hash, "is_active": true}).Error
	}
	return db.Create(&models.Admin{Email: opt.AdminEmail, Name: "Demo Admin", PasswordHash: hash, Role: models.RoleSuperAdmin, IsActive: true}).Error
}

func randomPassword() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

type department struct {
	slug, name string
	children   []leaf
}

type leaf struct {
	slug, name, hsn string
	gst             money.Rate
	nouns           []string
	basePrice       money.Amount
}

// The leaves of HSN chapters 61 to 64 (T-shirts, shoes, décor) are under
// the GST 2.0 value rule every store has (migration 00050): a piece sells at
// 5 % up to ₹2,625 and 18 % above, whatever gst says. Shoes, at ₹2,499 to
// ₹2,799, fall on both sides of the line.
var departments = []department{
	{"apparel", "Apparel", []leaf{
		{"t-shirts", "T-Shirts", "6109", 500, []string{"Crew Tee", "V-Neck Tee", "Pocket Tee", "Henley"}, 49900},
		{"shoes", "Shoes", "6403", 1800, []string{"Runner", "Sneaker", "Loafer", "Trail Shoe"}, 249900},
	}},
	{"electronics", "Electronics", []leaf{
		{"audio", "Audio", "8518", 1800, []string{"Earbuds", "Headphones", "Speaker", "Soundbar"}, 199900},
		{"accessories", "Accessories", "8544", 1800, []string{"USB-C Cable", "Charger", "Power Bank", "Phone Case"}, 79900},
	}},
	{"home-kitchen", "Home & Kitchen", []leaf{
		{"cookware", "Cookware", "7323", 1200, []string{"Skillet", "Saucepan", "Kadai", "Tawa"}, 129900},
		{"decor", "Décor", "6302", 500, []string{"Cushion Cover", "Bedsheet", "Table Runner", "Curtain"}, 89900},
	}},
}

var adjectives = []string{"Classic", "Everyday", "Premium", "Organic", "Urban", "Café", "Handloom", "Studio", "Heritage", "Nomad"}
var sizes = []string{"S", "M", "L", "XL", "XXL"}
var colors = []string{"Black", "White", "Indigo", "Olive", "Rust", "Grey"}

func seedCatalog(tx *gorm.DB, opt Options, res *Result) error {
	var leaves []models.Category
	var leafDefs []leaf
	for _, dep := range departments {
		parent := models.Category{ID: uuid.New(), Name: dep.name, Slug: dep.slug, Description: dep.name + " for every day"}
		if err := tx.Create(&parent).Error; err != nil {
			return err
		}
		for _, l := range dep.children {
			c := models.Category{ID: uuid.New(), Name: l.name, Slug: l.slug, ParentID: &parent.ID, Description: l.name}
			if err := tx.Create(&c).Error; err != nil {
				return err
			}
			leaves = append(leaves, c)
			leafDefs = append(leafDefs, l)
		}
	}
	const batch = 1000
	products := make([]models.Product, 0, batch)
	variants := make([]models.Variant, 0, batch*opt.VariantsPerProduct)
	flush := func() error {
		if len(products) > 0 {
			if err := tx.CreateInBatches(products, batch).Error; err != nil {
				return err
			}
		}
		if len(variants) > 0 {
			if err := tx.CreateInBatches(variants, batch).Error; err != nil {
				return err
			}
		}
		products, variants = products[:0], variants[:0]
		return nil
	}
	for i := 0; i < opt.Products; i++ {
		k := i % len(leaves)
		l := leafDefs[k]
		title := fmt.Sprintf("%s %s %d", adjectives[i/len(leaves)%len(adjectives)], l.nouns[i%len(l.nouns)], i+1)
		price := l.basePrice + money.Amount((i%7)*5000)
		p := models.Product{
			ID: uuid.New(), Title: title, Slug: database.Slugify(title),
			Description: fmt.Sprintf("%s from our %s range. Comfortable, durable and made to last.", title, strings.ToLower(l.name)),
			Price:       price, GSTRate: l.gst, HSNCode: l.hsn, Status: models.ProductActive, CategoryID: &leaves[k].ID,
		}
		if i%4 == 0 {
			cap := price + price/5
			p.CompareAtPrice = &cap
		}
		products = append(products, p)
		for v := 0; v < opt.VariantsPerProduct; v++ {
			threshold := 5
			variants = append(variants, models.Variant{
				ID: uuid.New(), ProductID: p.ID, SKU: fmt.Sprintf("%s-%05d-%d", strings.ToUpper(l.slug[:3]), i+1, v+1),
				Inventory: 20 + (i*7+v*13)%180, Size: sizes[v%len(sizes)], Color: colors[(i+v)%len(colors)],
				LowStockThreshold: &threshold,
			})
		}
		res.Products++
		res.Variants += opt.VariantsPerProduct
		if len(products) == batch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if err := tx.Create(&models.CustomerGroup{Name: "Wholesale", Description: "Trade customers with negotiated prices"}).Error; err != nil {
		return err
	}
	code := DemoDiscountCode
	err := tx.Create(&models.Discount{
		Code: &code, Description: "10% off your first order", Type: models.DiscountPercentage, Value: 1000,
		ApplicationType: models.DiscountManual, Scope: models.DiscountScopeOrder, IsActive: true,
		CustomerUsageLimit: ptr(1),
	}).Error
	if err != nil {
		return err
	}
	if err := seedShipping(tx); err != nil {
		return err
	}
	if err := seedCourier(tx); err != nil {
		return err
	}
	return seedPayments(tx)
}

func ptr[T any](v T) *T { return &v }
