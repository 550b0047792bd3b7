package audit

import (
	"context"

	"github.com/gocommerce/shop/internal/database"
	"github.com/google/uuid"
)

// MaxEntityIDs bounds the ids Entities names at once: a page of the log
// and the entity of its filter.
const MaxEntityIDs = 100

// Entity is what a reader of the log knows an entry's entity by: its kind
// (product, variant, order, customer, return, bundle, collection, webhook,
// admin, category, customer_group, price_list, discount, shipping_zone,
// shipping_method, location), a name (a title or name, an order number, a
// person's name else email, a return's order number, a webhook's URL, a
// discount's code) and a detail that tells it apart (a variant's SKU, an
// order's customer, an email, a return's status, a slug, a description, a
// shipping method's zone, a location's code).
type Entity struct {
	ID     uuid.UUID
	Kind   string
	Name   string
	Detail string
	// ProductID is a variant's product, whose page shows the variant.
	ProductID *uuid.UUID
}

// entitiesSQL looks every id up in the tables of the entities the log's
// actions name, in one statement (one index probe a table and id).
const entitiesSQL = `
SELECT 'product' AS kind, p.id, p.title AS name, '' AS detail, NULL::uuid AS product_id FROM products p WHERE p.id IN @ids
UNION ALL
SELECT 'variant', v.id, p.title || coalesce(' — ' || nullif(concat_ws(' / ', nullif(v.size, ''), nullif(v.color, '')), ''), ''),
       v.sku, v.product_id
  FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id IN @ids
UNION ALL
SELECT 'order', o.id, o.order_number, concat_ws(' · ', nullif(o.name, ''), o.email), NULL FROM orders o WHERE o.id IN @ids
UNION ALL
SELECT 'customer', c.id, coalesce(nullif(c.name, ''), c.email::text), CASE WHEN c.name <> '' THEN c.email::text ELSE '' END, NULL
  FROM customers c WHERE c.id IN @ids
UNION ALL
SELECT 'return', r.id, o.order_number, r.status, NULL FROM returns r JOIN orders o ON o.id = r.order_id WHERE r.id IN @ids
UNION ALL
SELECT 'bundle', b.id, b.title, '', NULL FROM bundles b WHERE b.id IN @ids
UNION ALL
SELECT 'collection', c.id, c.name, c.slug, NULL FROM collections c WHERE c.id IN @ids
UNION ALL
SELECT 'webhook', w.id, w.url, w.description, NULL FROM webhook_subscriptions w WHERE w.id IN @ids
UNION ALL
SELECT 'admin', a.id, coalesce(nullif(a.name, ''), a.email::text), a.email::text, NULL FROM admins a WHERE a.id IN @ids
UNION ALL
SELECT 'category', c.id, c.name, c.slug, NULL FROM categories c WHERE c.id IN @ids
UNION ALL
SELECT 'customer_group', g.id, g.name, '', NULL FROM customer_groups g WHERE g.id IN @ids
UNION ALL
SELECT 'price_list', l.id, l.name, '', NULL FROM price_lists l WHERE l.id IN @ids
UNION ALL
SELECT 'discount', d.id, coalesce(d.code, d.description), CASE WHEN d.code IS NULL THEN '' ELSE d.description END, NULL
  FROM discounts d WHERE d.id IN @ids
UNION ALL
SELECT 'shipping_zone', z.id, z.name, '', NULL FROM shipping_zones z WHERE z.id IN @ids
UNION ALL
SELECT 'shipping_method', m.id, m.name, z.name, NULL FROM shipping_methods m JOIN shipping_zones z ON z.id = m.zone_id WHERE m.id IN @ids
UNION ALL
SELECT 'location', l.id, l.name, l.code, NULL FROM locations l WHERE l.id IN @ids`

// Entities names those of ids (at most MaxEntityIDs) that are entities of
// the kinds above, as they are now (an automatic discount without a
// description has an empty name); an id of anything else, or of an
// entity deleted since, is left out. It lets a page of the log name its
// entities in one request instead of one a kind. Errors:
// SERVICE_UNAVAILABLE.
func (l *Log) Entities(ctx context.Context, ids []uuid.UUID) ([]Entity, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var out []Entity
	err := l.db.WithContext(ctx).Raw(entitiesSQL, map[string]any{"ids": ids}).Scan(&out).Error
	return out, database.Translate(err, "audit entity")
}
