// Package catalogapi serves the administrator catalog and merchandising API
// (README "API overview: catalog", docs/DECISIONS.md "Catalog"): products,
// variants and their stock, pricing, categories, collections, customer groups,
// price lists, discounts and bundles. Handlers parse and validate, call one
// service method and map the result; the services own the rules.
package catalogapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/bundle"
	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/rbac"
)

// Services are what the catalog routes call.
type Services struct {
	Catalog   *catalog.Service
	Discounts *discount.Admin
	Bundles   *bundle.Service
	// Images are the products' pictures in the product detail, the
	// product list and the variants lookup.
	Images ProductImages
}

// handlers holds the services behind the endpoints.
type handlers struct {
	catalog   *catalog.Service
	discounts *discount.Admin
	bundles   *bundle.Service
	images    ProductImages
}

// Register mounts the catalog routes on a.
func Register(a *adminroute.Router, svc Services) {
	h := &handlers{catalog: svc.Catalog, discounts: svc.Discounts, bundles: svc.Bundles, images: svc.Images}
	registerCatalog(a, h)
	registerDiscounts(a, h)
	registerBundles(a, h)
	registerRateChanges(a, h)
	registerValueRules(a, h)
}

func registerCatalog(a *adminroute.Router, h *handlers) {
	a.Post("/products", rbac.CatalogWrite, h.createProduct, adminroute.Audit("product.create", ""))
	a.Get("/products", rbac.CatalogRead, h.listProducts)
	a.Post("/products/bulk-status", rbac.CatalogWrite, h.setProductsStatus, adminroute.Audit("product.bulk_status", ""),
		adminroute.RateBucket(adminroute.Bulk))
	a.Get("/products/:productId", rbac.CatalogRead, h.getProduct)
	// A new product needs a price, so catalog.write may set it at creation;
	// changing it later needs pricing.write (docs/DECISIONS.md).
	a.Patch("/products/:productId", rbac.CatalogWrite, h.updateProduct, adminroute.Audit("product.update", "productId"),
		adminroute.FieldPermission(rbac.PricingWrite, "price"))
	a.Delete("/products/:productId", rbac.CatalogWrite, h.deleteProduct, adminroute.Audit("product.delete", "productId"))
	a.Patch("/products/:productId/pricing", rbac.PricingWrite, h.updatePricing, adminroute.Audit("product.pricing_update", "productId"))

	// A variant without a price sells at its product's price, so setting one
	// is a pricing change even at creation.
	a.Post("/products/:productId/variants", rbac.CatalogWrite, h.createVariant, adminroute.Audit("variant.create", ""),
		adminroute.FieldPermission(rbac.PricingWrite, "price"), adminroute.FieldPermission(rbac.InventoryWrite, "inventory"))
	a.Get("/variants", rbac.CatalogRead, h.searchVariants)
	a.Get("/variants/:variantId", rbac.CatalogRead, h.getVariant)
	a.Patch("/variants/:variantId", rbac.CatalogWrite, h.updateVariant, adminroute.Audit("variant.update", "variantId"),
		adminroute.FieldPermission(rbac.PricingWrite, "price"), adminroute.FieldPermission(rbac.InventoryWrite, "inventory"))
	a.Delete("/variants/:variantId", rbac.CatalogWrite, h.deleteVariant, adminroute.Audit("variant.delete", "variantId"))
	a.Patch("/variants/:variantId/inventory", rbac.InventoryWrite, h.adjustInventory, adminroute.Audit("inventory.update", "variantId"))
	a.Post("/variants/:variantId/inventory/adjust", rbac.InventoryWrite, h.changeInventory, adminroute.Audit("inventory.update", "variantId"))

	a.Post("/categories", rbac.CatalogWrite, h.createCategory, adminroute.Audit("category.create", ""))
	a.Get("/categories", rbac.CatalogRead, h.listCategories)
	a.Get("/categories/:categoryId", rbac.CatalogRead, h.getCategory)
	a.Patch("/categories/:categoryId", rbac.CatalogWrite, h.updateCategory, adminroute.Audit("category.update", "categoryId"))
	a.Delete("/categories/:categoryId", rbac.CatalogWrite, h.deleteCategory, adminroute.Audit("category.delete", "categoryId"))

	a.Post("/collections", rbac.CatalogWrite, h.createCollection, adminroute.Audit("collection.create", ""))
	a.Get("/collections", rbac.CatalogRead, h.listCollections)
	a.Get("/collections/:collectionId", rbac.CatalogRead, h.getCollection)
	a.Patch("/collections/:collectionId", rbac.CatalogWrite, h.updateCollection, adminroute.Audit("collection.update", "collectionId"))
	a.Delete("/collections/:collectionId", rbac.CatalogWrite, h.deleteCollection, adminroute.Audit("collection.delete", "collectionId"))
	a.Get("/collections/:collectionId/products", rbac.CatalogRead, h.listCollectionProducts)
	a.Post("/collections/:collectionId/products/:productId", rbac.CatalogWrite, h.addCollectionProduct, adminroute.Audit("collection.add_product", "collectionId"))
	a.Delete("/collections/:collectionId/products/:productId", rbac.CatalogWrite, h.removeCollectionProduct, adminroute.Audit("collection.remove_product", "collectionId"))

	a.Post("/customer-groups", rbac.PricingWrite, h.createCustomerGroup, adminroute.Audit("customer_group.create", ""))
	a.Get("/customer-groups", rbac.CatalogRead, h.listCustomerGroups)
	a.Get("/customer-groups/:groupId", rbac.CatalogRead, h.getCustomerGroup)
	a.Patch("/customer-groups/:groupId", rbac.PricingWrite, h.updateCustomerGroup, adminroute.Audit("customer_group.update", "groupId"))
	a.Delete("/customer-groups/:groupId", rbac.PricingWrite, h.deleteCustomerGroup, adminroute.Audit("customer_group.delete", "groupId"))

	a.Post("/price-lists", rbac.PricingWrite, h.createPriceList, adminroute.Audit("price_list.create", ""))
	a.Get("/price-lists", rbac.CatalogRead, h.listPriceLists)
	a.Get("/price-lists/:priceListId", rbac.CatalogRead, h.getPriceList)
	a.Patch("/price-lists/:priceListId", rbac.PricingWrite, h.updatePriceList, adminroute.Audit("price_list.update", "priceListId"))
	a.Delete("/price-lists/:priceListId", rbac.PricingWrite, h.deletePriceList, adminroute.Audit("price_list.delete", "priceListId"))
}

func registerDiscounts(a *adminroute.Router, h *handlers) {
	a.Post("/discounts", rbac.DiscountsWrite, h.createDiscount, adminroute.Audit("discount.create", ""))
	a.Get("/discounts", rbac.CatalogRead, h.listDiscounts)
	a.Get("/discounts/:discountId", rbac.CatalogRead, h.getDiscount)
	a.Patch("/discounts/:discountId", rbac.DiscountsWrite, h.updateDiscount, adminroute.Audit("discount.update", "discountId"))
	a.Delete("/discounts/:discountId", rbac.DiscountsWrite, h.deleteDiscount, adminroute.Audit("discount.delete", "discountId"))
}

func registerBundles(a *adminroute.Router, h *handlers) {
	a.Post("/bundles", rbac.BundlesWrite, h.createBundle, adminroute.Audit("bundle.create", ""))
	a.Get("/bundles", rbac.CatalogRead, h.listBundles)
	a.Get("/bundles/:bundleId", rbac.CatalogRead, h.getBundle)
	a.Patch("/bundles/:bundleId", rbac.BundlesWrite, h.updateBundle, adminroute.Audit("bundle.update", "bundleId"))
	a.Delete("/bundles/:bundleId", rbac.BundlesWrite, h.deleteBundle, adminroute.Audit("bundle.delete", "bundleId"))

	a.Post("/bundles/:bundleId/sets", rbac.BundlesWrite, h.createBundleSet, adminroute.Audit("bundle_set.create", ""))
	a.Get("/bundles/:bundleId/sets", rbac.CatalogRead, h.listBundleSets)
	a.Get("/bundles/:bundleId/sets/:setId", rbac.CatalogRead, h.getBundleSet)
	a.Patch("/bundles/:bundleId/sets/:setId", rbac.BundlesWrite, h.updateBundleSet, adminroute.Audit("bundle_set.update", "setId"))
	a.Delete("/bundles/:bundleId/sets/:setId", rbac.BundlesWrite, h.deleteBundleSet, adminroute.Audit("bundle_set.delete", "setId"))

	a.Post("/bundles/:bundleId/sets/:setId/items", rbac.BundlesWrite, h.createBundleItem, adminroute.Audit("bundle_item.create", ""))
	a.Patch("/bundles/:bundleId/sets/:setId/items/:itemId", rbac.BundlesWrite, h.updateBundleItem, adminroute.Audit("bundle_item.update", "itemId"))
	a.Delete("/bundles/:bundleId/sets/:setId/items/:itemId", rbac.BundlesWrite, h.deleteBundleItem, adminroute.Audit("bundle_item.delete", "itemId"))
}
