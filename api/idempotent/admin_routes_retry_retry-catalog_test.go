package idempotent_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/media/mediatest"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// The catalog's admin writes (products, variants, images, categories,
// collections, price lists, bundles): each records what it made or touched
// in its transaction, and a retry after a crash answers it as it is.
func init() {
	for rt, mk := range map[string]func(t *testing.T, w retryWorld) retryCase{
		"POST " + admin + "/products": func(t *testing.T, w retryWorld) retryCase {
			title := "Retry lamp " + uuid.NewString()
			return retryCase{path: admin + "/products", status: http.StatusCreated,
				body: map[string]any{"title": title, "price": 499.5, "description": "Brass"},
				once: func(t *testing.T) {
					made := `(SELECT id FROM products WHERE title = ?)`
					rowsAre(t, w, 1, `SELECT count(*) FROM products WHERE title = ?`, title)
					rowsAre(t, w, 1, `SELECT count(*) FROM events WHERE type = 'product.created' AND (data->>'id')::uuid IN `+made, title)
					auditedOnce(t, w, "product.create", made, title)
				}}
		},
		"POST " + admin + "/products/:productId/variants": func(t *testing.T, w retryWorld) retryCase {
			p := fixtures.MustProduct(t, w.app.DB, "Retry "+uuid.NewString()[:6], 10000)
			return retryCase{path: admin + "/products/" + p.ID.String() + "/variants", status: http.StatusCreated,
				body: map[string]any{"sku": "RV-" + uuid.NewString()[:8], "inventory": 5, "weight": 1.5, "size": "M"},
				once: func(t *testing.T) {
					made := `(SELECT id FROM variants WHERE product_id = ?)`
					rowsAre(t, w, 1, `SELECT count(*) FROM variants WHERE product_id = ?`, p.ID)
					auditedOnce(t, w, "variant.create", made, p.ID)
				}}
		},
		"POST " + admin + "/products/:productId/images": func(t *testing.T, w retryWorld) retryCase {
			p := fixtures.MustProduct(t, w.app.DB, "Retry "+uuid.NewString()[:6], 10000)
			body, ct := jpegForm(t, "a brass lamp")
			return retryCase{path: admin + "/products/" + p.ID.String() + "/images", status: http.StatusCreated,
				body: body, headers: map[string]string{"Content-Type": ct},
				once: func(t *testing.T) {
					made := `(SELECT id FROM product_images WHERE product_id = ?)`
					rowsAre(t, w, 1, `SELECT count(*) FROM product_images WHERE product_id = ?`, p.ID)
					auditedOnce(t, w, "product_image.create", made, p.ID)
				}}
		},
		"POST " + admin + "/categories": func(t *testing.T, w retryWorld) retryCase {
			name := "Retry lighting " + uuid.NewString()
			return retryCase{path: admin + "/categories", status: http.StatusCreated, body: map[string]any{"name": name},
				once: func(t *testing.T) {
					rowsAre(t, w, 1, `SELECT count(*) FROM categories WHERE name = ?`, name)
					auditedOnce(t, w, "category.create", `(SELECT id FROM categories WHERE name = ?)`, name)
				}}
		},
		"POST " + admin + "/collections": func(t *testing.T, w retryWorld) retryCase {
			name := "Retry summer " + uuid.NewString()
			return retryCase{path: admin + "/collections", status: http.StatusCreated, body: map[string]any{"name": name},
				once: func(t *testing.T) {
					rowsAre(t, w, 1, `SELECT count(*) FROM collections WHERE name = ?`, name)
					auditedOnce(t, w, "collection.create", `(SELECT id FROM collections WHERE name = ?)`, name)
				}}
		},
		"POST " + admin + "/price-lists": func(t *testing.T, w retryWorld) retryCase {
			group := adminMade(t, w, "/customer-groups", map[string]any{"name": "Retry trade " + uuid.NewString()[:6]})
			v := variant(t, w, 1)
			name := "Retry trade prices " + uuid.NewString()
			return retryCase{path: admin + "/price-lists", status: http.StatusCreated,
				body: map[string]any{"name": name, "customerGroupId": group, "rules": []any{map[string]any{"variantId": v.ID, "price": 80}}},
				once: func(t *testing.T) {
					made := `(SELECT id FROM price_lists WHERE name = ?)`
					rowsAre(t, w, 1, `SELECT count(*) FROM price_lists WHERE name = ?`, name)
					rowsAre(t, w, 1, `SELECT count(*) FROM price_list_rules WHERE price_list_id IN `+made, name)
					auditedOnce(t, w, "price_list.create", made, name)
				}}
		},
		"POST " + admin + "/bundles": func(t *testing.T, w retryWorld) retryCase {
			title := "Retry kit " + uuid.NewString()
			return retryCase{path: admin + "/bundles", status: http.StatusCreated,
				body: map[string]any{"title": title, "discountPercent": 10},
				once: func(t *testing.T) {
					rowsAre(t, w, 1, `SELECT count(*) FROM bundles WHERE title = ?`, title)
					auditedOnce(t, w, "bundle.create", `(SELECT id FROM bundles WHERE title = ?)`, title)
				}}
		},
		"POST " + admin + "/bundles/:bundleId/sets": func(t *testing.T, w retryWorld) retryCase {
			b := adminMade(t, w, "/bundles", map[string]any{"title": "Retry kit"})
			return retryCase{path: admin + "/bundles/" + b + "/sets", status: http.StatusCreated,
				body: map[string]any{"title": "Pick a tee", "minQuantity": 1, "maxQuantity": 2},
				once: func(t *testing.T) {
					rowsAre(t, w, 1, `SELECT count(*) FROM bundle_sets WHERE bundle_id = ?`, b)
					auditedOnce(t, w, "bundle_set.create", `(SELECT id FROM bundle_sets WHERE bundle_id = ?)`, b)
				}}
		},
		"POST " + admin + "/bundles/:bundleId/sets/:setId/items": func(t *testing.T, w retryWorld) retryCase {
			setPath := bundleSet(t, w)
			v := variant(t, w, 5)
			return retryCase{path: setPath + "/items", status: http.StatusCreated,
				body: map[string]any{"variantId": v.ID, "quantity": 2, "isDefault": true},
				once: func(t *testing.T) {
					rowsAre(t, w, 1, `SELECT count(*) FROM bundle_set_items WHERE variant_id = ?`, v.ID)
					auditedOnce(t, w, "bundle_item.create", `(SELECT id FROM bundle_set_items WHERE variant_id = ?)`, v.ID)
				}}
		},
		"POST " + admin + "/collections/:collectionId/products/:productId": func(t *testing.T, w retryWorld) retryCase {
			c := adminMade(t, w, "/collections", map[string]any{"name": "Retry " + uuid.NewString()})
			p := fixtures.MustProduct(t, w.app.DB, "Retry "+uuid.NewString()[:6], 10000)
			return retryCase{path: admin + "/collections/" + c + "/products/" + p.ID.String(), status: http.StatusNoContent,
				once: func(t *testing.T) {
					rowsAre(t, w, 1, `SELECT count(*) FROM collection_products WHERE collection_id = ?`, c)
					auditedOnce(t, w, "collection.add_product", `(?)`, c)
				}}
		},
		"POST " + admin + "/products/bulk-status": func(t *testing.T, w retryWorld) retryCase {
			// A draft is made active; an archived product may not be, and
			// is skipped.
			moves := fixtures.MustProduct(t, w.app.DB, "Retry "+uuid.NewString()[:6], 10000)
			stays := fixtures.MustProduct(t, w.app.DB, "Retry "+uuid.NewString()[:6], 10000)
			// An active product needs its HSN code.
			if err := w.app.DB.Exec(`UPDATE products SET hsn_code = '6109', status = CASE WHEN id = ? THEN 'draft' ELSE 'archived' END WHERE id IN ?`,
				moves.ID, []uuid.UUID{moves.ID, stays.ID}).Error; err != nil {
				t.Fatal(err)
			}
			return retryCase{path: admin + "/products/bulk-status", status: http.StatusOK,
				body: map[string]any{"productIds": []uuid.UUID{moves.ID, stays.ID}, "status": "active"},
				once: func(t *testing.T) {
					rowsAre(t, w, 1, `SELECT count(*) FROM products WHERE id = ? AND status = 'active'`, moves.ID)
					rowsAre(t, w, 1, `SELECT count(*) FROM admin_audit_logs WHERE action = 'product.bulk_status'
						AND metadata::text LIKE '%' || ? || '%'`, moves.ID.String())
				}}
		},

		"PATCH " + admin + "/products/:productId": func(t *testing.T, w retryWorld) retryCase {
			p := fixtures.MustProduct(t, w.app.DB, "Retry "+uuid.NewString()[:6], 10000)
			return retryCase{path: admin + "/products/" + p.ID.String(), status: http.StatusOK,
				body: map[string]any{"title": "Retry renamed", "description": "Now brass"},
				once: func(t *testing.T) { auditedOnce(t, w, "product.update", `(?)`, p.ID) }}
		},
		"PATCH " + admin + "/products/:productId/pricing": func(t *testing.T, w retryWorld) retryCase {
			p := fixtures.MustProduct(t, w.app.DB, "Retry "+uuid.NewString()[:6], 10000)
			return retryCase{path: admin + "/products/" + p.ID.String() + "/pricing", status: http.StatusOK,
				body: map[string]any{"price": 90, "compareAtPrice": 120},
				once: func(t *testing.T) {
					rowsAre(t, w, 9000, `SELECT price FROM products WHERE id = ?`, p.ID)
					auditedOnce(t, w, "product.pricing_update", `(?)`, p.ID)
				}}
		},
		"PATCH " + admin + "/variants/:variantId": func(t *testing.T, w retryWorld) retryCase {
			v := variant(t, w, 10)
			return retryCase{path: admin + "/variants/" + v.ID.String(), status: http.StatusOK,
				body: map[string]any{"inventory": 4, "size": "L", "weight": 0.25},
				once: func(t *testing.T) {
					inventoryIs(t, w, v, 4)
					auditedOnce(t, w, "variant.update", `(?)`, v.ID)
				}}
		},
		"PATCH " + admin + "/categories/:categoryId": func(t *testing.T, w retryWorld) retryCase {
			c := adminMade(t, w, "/categories", map[string]any{"name": "Retry " + uuid.NewString()})
			return retryCase{path: admin + "/categories/" + c, status: http.StatusOK,
				body: map[string]any{"description": "Lamps and shades"},
				once: func(t *testing.T) { auditedOnce(t, w, "category.update", `(?)`, c) }}
		},
		"PATCH " + admin + "/collections/:collectionId": func(t *testing.T, w retryWorld) retryCase {
			c := adminMade(t, w, "/collections", map[string]any{"name": "Retry " + uuid.NewString()})
			return retryCase{path: admin + "/collections/" + c, status: http.StatusOK,
				body: map[string]any{"description": "For the summer"},
				once: func(t *testing.T) { auditedOnce(t, w, "collection.update", `(?)`, c) }}
		},
		"PATCH " + admin + "/price-lists/:priceListId": func(t *testing.T, w retryWorld) retryCase {
			l, v := priceList(t, w)
			// The rules are written again under new ids by each run that
			// applies them: the retry must answer the first run's.
			return retryCase{path: admin + "/price-lists/" + l, status: http.StatusOK,
				body: map[string]any{"priority": 3, "rules": []any{map[string]any{"variantId": v.ID, "price": 70}}},
				once: func(t *testing.T) {
					rowsAre(t, w, 1, `SELECT count(*) FROM price_list_rules WHERE price_list_id = ? AND price = 7000`, l)
					auditedOnce(t, w, "price_list.update", `(?)`, l)
				}}
		},
		"PATCH " + admin + "/bundles/:bundleId": func(t *testing.T, w retryWorld) retryCase {
			b := adminMade(t, w, "/bundles", map[string]any{"title": "Retry kit"})
			return retryCase{path: admin + "/bundles/" + b, status: http.StatusOK, body: map[string]any{"discountPercent": 15},
				once: func(t *testing.T) { auditedOnce(t, w, "bundle.update", `(?)`, b) }}
		},
		"PATCH " + admin + "/bundles/:bundleId/sets/:setId": func(t *testing.T, w retryWorld) retryCase {
			setPath := bundleSet(t, w)
			return retryCase{path: setPath, status: http.StatusOK, body: map[string]any{"maxQuantity": 3},
				once: func(t *testing.T) { auditedOnce(t, w, "bundle_set.update", `(?)`, lastPart(setPath)) }}
		},
		"PATCH " + admin + "/bundles/:bundleId/sets/:setId/items/:itemId": func(t *testing.T, w retryWorld) retryCase {
			itemPath := bundleItem(t, w)
			return retryCase{path: itemPath, status: http.StatusOK, body: map[string]any{"quantity": 3},
				once: func(t *testing.T) { auditedOnce(t, w, "bundle_item.update", `(?)`, lastPart(itemPath)) }}
		},
		"PATCH " + admin + "/products/:productId/images/:imageId": func(t *testing.T, w retryWorld) retryCase {
			imagePath := productImage(t, w)
			return retryCase{path: imagePath, status: http.StatusOK, body: map[string]any{"alt": "a lamp, lit"},
				once: func(t *testing.T) { auditedOnce(t, w, "product_image.update", `(?)`, lastPart(imagePath)) }}
		},

		"DELETE " + admin + "/products/:productId": func(t *testing.T, w retryWorld) retryCase {
			p := fixtures.MustProduct(t, w.app.DB, "Retry "+uuid.NewString()[:6], 10000)
			return retryCase{path: admin + "/products/" + p.ID.String(), status: http.StatusNoContent,
				once: func(t *testing.T) { goneOnce(t, w, "products", "product.delete", p.ID.String()) }}
		},
		"DELETE " + admin + "/variants/:variantId": func(t *testing.T, w retryWorld) retryCase {
			v := variant(t, w, 3)
			return retryCase{path: admin + "/variants/" + v.ID.String(), status: http.StatusNoContent,
				once: func(t *testing.T) { goneOnce(t, w, "variants", "variant.delete", v.ID.String()) }}
		},
		"DELETE " + admin + "/categories/:categoryId": func(t *testing.T, w retryWorld) retryCase {
			c := adminMade(t, w, "/categories", map[string]any{"name": "Retry " + uuid.NewString()})
			return retryCase{path: admin + "/categories/" + c, status: http.StatusNoContent,
				once: func(t *testing.T) { goneOnce(t, w, "categories", "category.delete", c) }}
		},
		"DELETE " + admin + "/collections/:collectionId": func(t *testing.T, w retryWorld) retryCase {
			c := adminMade(t, w, "/collections", map[string]any{"name": "Retry " + uuid.NewString()})
			return retryCase{path: admin + "/collections/" + c, status: http.StatusNoContent,
				once: func(t *testing.T) { goneOnce(t, w, "collections", "collection.delete", c) }}
		},
		"DELETE " + admin + "/collections/:collectionId/products/:productId": func(t *testing.T, w retryWorld) retryCase {
			c := adminMade(t, w, "/collections", map[string]any{"name": "Retry " + uuid.NewString()})
			p := fixtures.MustProduct(t, w.app.DB, "Retry "+uuid.NewString()[:6], 10000)
			path := admin + "/collections/" + c + "/products/" + p.ID.String()
			w.app.Do(t, http.MethodPost, path, keyed(testkit.Req{Token: w.token}, uuid.NewString(), nil)).Expect(t, http.StatusNoContent)
			return retryCase{path: path, status: http.StatusNoContent,
				once: func(t *testing.T) {
					rowsAre(t, w, 0, `SELECT count(*) FROM collection_products WHERE collection_id = ?`, c)
					auditedOnce(t, w, "collection.remove_product", `(?)`, c)
				}}
		},
		"DELETE " + admin + "/price-lists/:priceListId": func(t *testing.T, w retryWorld) retryCase {
			l, _ := priceList(t, w)
			return retryCase{path: admin + "/price-lists/" + l, status: http.StatusNoContent,
				once: func(t *testing.T) { goneOnce(t, w, "price_lists", "price_list.delete", l) }}
		},
		"DELETE " + admin + "/bundles/:bundleId": func(t *testing.T, w retryWorld) retryCase {
			b := adminMade(t, w, "/bundles", map[string]any{"title": "Retry kit"})
			return retryCase{path: admin + "/bundles/" + b, status: http.StatusNoContent,
				once: func(t *testing.T) { goneOnce(t, w, "bundles", "bundle.delete", b) }}
		},
		"DELETE " + admin + "/bundles/:bundleId/sets/:setId": func(t *testing.T, w retryWorld) retryCase {
			setPath := bundleSet(t, w)
			return retryCase{path: setPath, status: http.StatusNoContent,
				once: func(t *testing.T) { goneOnce(t, w, "bundle_sets", "bundle_set.delete", lastPart(setPath)) }}
		},
		"DELETE " + admin + "/bundles/:bundleId/sets/:setId/items/:itemId": func(t *testing.T, w retryWorld) retryCase {
			itemPath := bundleItem(t, w)
			return retryCase{path: itemPath, status: http.StatusNoContent,
				once: func(t *testing.T) { goneOnce(t, w, "bundle_set_items", "bundle_item.delete", lastPart(itemPath)) }}
		},
		"DELETE " + admin + "/products/:productId/images/:imageId": func(t *testing.T, w retryWorld) retryCase {
			imagePath := productImage(t, w)
			return retryCase{path: imagePath, status: http.StatusNoContent,
				once: func(t *testing.T) { goneOnce(t, w, "product_images", "product_image.delete", lastPart(imagePath)) }}
		},
	} {
		adminRetryCases[rt] = mk
	}
}

// auditedOnce checks one entry of action names the entity (or each of the
// entities) that entitySQL, a parenthesized list or subquery, gives.
func auditedOnce(t *testing.T, w retryWorld, action, entitySQL string, args ...any) {
	t.Helper()
	rowsAre(t, w, 1, `SELECT count(*) FROM admin_audit_logs WHERE action = ? AND entity_id::uuid IN `+entitySQL,
		append([]any{action}, args...)...)
}

// goneOnce checks row id of table is gone and its delete audited once.
func goneOnce(t *testing.T, w retryWorld, table, action, id string) {
	t.Helper()
	rowsAre(t, w, 0, `SELECT count(*) FROM `+table+` WHERE id = ?`, id)
	auditedOnce(t, w, action, `(?)`, id)
}

// adminMade creates path's thing through the admin API and returns its id.
func adminMade(t *testing.T, w retryWorld, path string, body map[string]any) string {
	t.Helper()
	return w.app.Do(t, http.MethodPost, admin+path, testkit.Req{Token: w.token, Body: body}).
		Expect(t, http.StatusCreated).Map(t)["id"].(string)
}

// bundleSet is the path of a set of a new bundle.
func bundleSet(t *testing.T, w retryWorld) string {
	t.Helper()
	b := adminMade(t, w, "/bundles", map[string]any{"title": "Retry kit"})
	return admin + "/bundles/" + b + "/sets/" + adminMade(t, w, "/bundles/"+b+"/sets", map[string]any{"title": "Pick one"})
}

// bundleItem is the path of an item of a set of a new bundle.
func bundleItem(t *testing.T, w retryWorld) string {
	t.Helper()
	setPath := bundleSet(t, w)
	v := variant(t, w, 5)
	id := w.app.Do(t, http.MethodPost, setPath+"/items", testkit.Req{Token: w.token, Body: map[string]any{"variantId": v.ID}}).
		Expect(t, http.StatusCreated).Map(t)["id"].(string)
	return setPath + "/items/" + id
}

// priceList is the id of a new price list with a rule for a new variant,
// and the variant.
func priceList(t *testing.T, w retryWorld) (string, models.Variant) {
	t.Helper()
	group := adminMade(t, w, "/customer-groups", map[string]any{"name": "Retry trade " + uuid.NewString()[:6]})
	v := variant(t, w, 1)
	return adminMade(t, w, "/price-lists", map[string]any{"name": "Retry trade prices", "customerGroupId": group,
		"rules": []any{map[string]any{"variantId": v.ID, "price": 80}}}), v
}

// productImage is the path of an image uploaded to a new product.
func productImage(t *testing.T, w retryWorld) string {
	t.Helper()
	p := fixtures.MustProduct(t, w.app.DB, "Retry "+uuid.NewString()[:6], 10000)
	body, ct := jpegForm(t, "a lamp")
	path := admin + "/products/" + p.ID.String() + "/images"
	id := w.app.Do(t, http.MethodPost, path, testkit.Req{Token: w.token, Body: body, Headers: map[string]string{"Content-Type": ct}}).
		Expect(t, http.StatusCreated).Map(t)["id"].(string)
	return path + "/" + id
}

// jpegForm is a multipart upload of a small JPEG with alt text, and its
// Content-Type.
func jpegForm(t *testing.T, alt string) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if err := mw.WriteField("alt", alt); err != nil {
		t.Fatal(err)
	}
	part, err := mw.CreateFormFile("file", "lamp.jpg")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := part.Write(mediatest.JPEG(40, 40)); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), mw.FormDataContentType()
}

// lastPart is the last segment of path: the id it names.
func lastPart(path string) string {
	return path[strings.LastIndexByte(path, '/')+1:]
}
