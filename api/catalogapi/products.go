package catalogapi

import (
	"time"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/media"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/internal/taxrule"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type productRequest struct {
	Title       string       `json:"title"`
	Slug        string       `json:"slug"`
	Description string       `json:"description"`
	Price       money.Amount `json:"price"`
	GSTRate     money.Rate   `json:"gstRate"`
	CessRate    money.Rate   `json:"cessRate"`
	Unit        string       `json:"unit"`
	HSNCode     string       `json:"hsnCode"`
	Status      string       `json:"status"`
	CategoryID  *jsonUUID    `json:"categoryId"`
}

type productPatchRequest struct {
	Title       patch.Field[string]       `json:"title"`
	Slug        patch.Field[string]       `json:"slug"`
	Description patch.Field[string]       `json:"description"`
	Price       patch.Field[money.Amount] `json:"price"`
	GSTRate     patch.Field[money.Rate]   `json:"gstRate"`
	CessRate    patch.Field[money.Rate]   `json:"cessRate"`
	Unit        patch.Field[string]       `json:"unit"`
	HSNCode     patch.Field[string]       `json:"hsnCode"`
	Status      patch.Field[string]       `json:"status"`
	CategoryID  patch.Field[jsonUUID]     `json:"categoryId"`
}

type productResponse struct {
	ID             uuid.UUID     `json:"id"`
	Title          string        `json:"title"`
	Slug           string        `json:"slug"`
	Description    string        `json:"description"`
	Price          money.Amount  `json:"price"`
	CompareAtPrice *money.Amount `json:"compareAtPrice"`
	// GSTRate is the rate the product sells at at its price: its own, or,
	// under the value rule GSTRule names, the rule's.
	GSTRate  money.Rate `json:"gstRate"`
	GSTRule  *uuid.UUID `json:"gstRule"`
	CessRate money.Rate `json:"cessRate"`
	HSNCode  string     `json:"hsnCode"`
	Unit     string     `json:"unit"`
	// ScheduledGSTRate is the rate a pending rate change will set, and
	// from when; null when none waits.
	ScheduledGSTRate *catalog.ScheduledRate `json:"scheduledGstRate"`
	Status           string                 `json:"status"`
	CategoryID       *uuid.UUID             `json:"categoryId"`
	CreatedAt        time.Time              `json:"createdAt"`
	UpdatedAt        time.Time              `json:"updatedAt"`
}

type collectionRef struct {
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name"`
	Slug string    `json:"slug"`
}

type productDetailResponse struct {
	productResponse
	Variants               []variantResponse       `json:"variants"`
	Collections            []collectionRef         `json:"collections"`
	CustomerGroupOverrides map[string]money.Amount `json:"customerGroupOverrides"`
	// Images are all its images in position order, as GET
	// /admin/products/{id}/images lists them.
	Images []media.Image `json:"images"`
}

func newProduct(p *models.Product) productResponse {
	return productResponse{
		ID: p.ID, Title: p.Title, Slug: p.Slug, Description: p.Description, Price: p.Price,
		CompareAtPrice: p.CompareAtPrice, GSTRate: p.GSTRate, CessRate: p.CessRate, HSNCode: p.HSNCode, Unit: p.Unit,
		Status:     p.Status,
		CategoryID: p.CategoryID, CreatedAt: p.CreatedAt.UTC(), UpdatedAt: p.UpdatedAt.UTC(),
	}
}

func newProductDetail(d *catalog.ProductDetail) productDetailResponse {
	out := productDetailResponse{
		productResponse:        newProduct(&d.Product),
		Variants:               make([]variantResponse, len(d.Variants)),
		Collections:            make([]collectionRef, len(d.Collections)),
		CustomerGroupOverrides: make(map[string]money.Amount, len(d.GroupPrices)),
	}
	for i := range d.Variants {
		out.Variants[i] = newVariant(&d.Variants[i])
	}
	for i, c := range d.Collections {
		out.Collections[i] = collectionRef{ID: c.ID, Name: c.Name, Slug: c.Slug}
	}
	for id, price := range d.GroupPrices {
		out.CustomerGroupOverrides[id.String()] = price
	}
	return out
}

func (h *handlers) createProduct(c *fiber.Ctx) error {
	var req productRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	p, err := h.catalog.CreateProduct(c.UserContext(), catalog.ProductInput{
		Title: req.Title, Slug: req.Slug, Description: req.Description, Price: req.Price, GSTRate: req.GSTRate,
		CessRate: req.CessRate, Unit: req.Unit, HSNCode: req.HSNCode, Status: req.Status, CategoryID: uuidPtr(req.CategoryID),
	})
	if err != nil {
		return err
	}
	out, err := h.productAnswer(c, p)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(out)
}

func (h *handlers) listProducts(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	status, err := httpx.QueryEnum(c, "status", catalog.ProductStatuses...)
	if err != nil {
		return err
	}
	categoryID, err := httpx.QueryUUID(c, "categoryId")
	if err != nil {
		return err
	}
	search, err := httpx.QuerySearch(c, "search")
	if err != nil {
		return err
	}
	ids, err := httpx.QueryIDs(c, "ids", catalog.MaxListIDs)
	if err != nil {
		return err
	}
	missingHSN, err := httpx.QueryEnum(c, "missingHsn", "true", "false")
	if err != nil {
		return err
	}
	rows, total, err := h.catalog.ListProducts(c.UserContext(), catalog.ProductFilter{
		Status: status, CategoryID: categoryID, Search: search, IDs: ids, MissingHSN: missingHSN == "true", Window: page.Window(),
	})
	if err != nil {
		return err
	}
	shown := make([]uuid.UUID, len(rows))
	for i := range rows {
		shown[i] = rows[i].ID
	}
	thumbs, err := h.thumbnailsOf(c.UserContext(), shown)
	if err != nil {
		return err
	}
	scheduled, err := h.catalog.ScheduledRates(c.UserContext(), shown)
	if err != nil {
		return err
	}
	rules, err := h.catalog.ValueRulesOf(c.UserContext(), shown)
	if err != nil {
		return err
	}
	data := make([]productListItem, len(rows))
	for i := range rows {
		r := &rows[i]
		data[i] = productListItem{productResponse: newProduct(&r.Product), VariantCount: r.Variants, OnHand: r.OnHand, Available: r.Available,
			Thumbnail: thumbs[r.ID]}
		data[i].ScheduledGSTRate = scheduledOf(scheduled, r.ID)
		data[i].underRule(rules, r.Price)
	}
	return c.JSON(httpx.NewList(data, page, total))
}

// productListItem is a product of the admin list, with its variants' stock
// and its thumbnail.
type productListItem struct {
	productResponse
	VariantCount int `json:"variantCount"`
	OnHand       int `json:"onHand"`
	Available    int `json:"available"`
	// Thumbnail is the URL of its first ready image's 200 px rendition;
	// nil without one.
	Thumbnail *string `json:"thumbnail"`
}

func (h *handlers) getProduct(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "productId", "product")
	if err != nil {
		return err
	}
	d, err := h.catalog.GetProduct(c.UserContext(), id)
	if err != nil {
		return err
	}
	out, err := h.productDetail(c.UserContext(), d)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

func (h *handlers) updateProduct(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "productId", "product")
	if err != nil {
		return err
	}
	var req productPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	p, err := h.catalog.UpdateProduct(c.UserContext(), id, catalog.ProductPatch{
		Title: req.Title, Slug: req.Slug, Description: req.Description, Price: req.Price, GSTRate: req.GSTRate,
		CessRate: req.CessRate, Unit: req.Unit, HSNCode: req.HSNCode, Status: req.Status, CategoryID: patch.Map(req.CategoryID, jsonUUID.id),
	})
	if err != nil {
		return err
	}
	out, err := h.productAnswer(c, p)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// productAnswer is p as answered, with its scheduled rate and value rule.
func (h *handlers) productAnswer(c *fiber.Ctx, p *models.Product) (productResponse, error) {
	out := newProduct(p)
	scheduled, err := h.catalog.ScheduledRates(c.UserContext(), []uuid.UUID{p.ID})
	if err != nil {
		return out, err
	}
	out.ScheduledGSTRate = scheduledOf(scheduled, p.ID)
	rules, err := h.catalog.ValueRulesOf(c.UserContext(), []uuid.UUID{p.ID})
	if err != nil {
		return out, err
	}
	out.underRule(rules, p.Price)
	return out, nil
}

// underRule shows the value rule of rules that covers the product, if one
// does, and the rate it gives the product at price (docs/DECISIONS.md "GST
// rates that depend on value").
func (p *productResponse) underRule(rules map[uuid.UUID]taxrule.Rule, price money.Amount) {
	r, ok := rules[p.ID]
	if !ok {
		return
	}
	p.GSTRule, p.GSTRate = &r.ID, r.RateAt(price, p.CessRate)
}

func scheduledOf(m map[uuid.UUID]catalog.ScheduledRate, id uuid.UUID) *catalog.ScheduledRate {
	if r, ok := m[id]; ok {
		return &r
	}
	return nil
}

// deleteProduct answers 204 whether the product was deleted or, having
// orders, archived; the audit entry records which.
func (h *handlers) deleteProduct(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "productId", "product")
	if err != nil {
		return err
	}
	archived, err := h.catalog.DeleteProduct(c.UserContext(), id)
	if err != nil {
		return err
	}
	adminroute.AddAuditMeta(c, "archived", archived)
	return c.SendStatus(fiber.StatusNoContent)
}
