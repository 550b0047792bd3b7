package browse

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gocommerce/shop/internal/cache"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/google/uuid"
)

// ListQuery selects a page of active products.
type ListQuery struct {
	// Group is the caller's customer group (nil: guest or no group).
	Group *uuid.UUID
	// Category is a category id or slug; its subcategories are included.
	Category string
	// Pattern is a LIKE pattern already escaped (database.LikeContains), or "".
	Pattern string
	paging.Window
}

// Only the first few listing pages at the default page size go to Redis,
// and only when they list something: their keys are bounded by the
// catalog (customer groups × categories × sharedPages). Searches, other page
// sizes and deeper pages have keys a client can vary without end, so they
// are kept in the process's bounded memo only (docs/DECISIONS.md).
const (
	// sharedLimit is the page size storefronts ask for by default
	// (httpx.DefaultLimit).
	sharedLimit = 20
	sharedPages = 5
)

// shared reports whether q's page may be cached in Redis.
func (q ListQuery) shared() bool {
	return q.Pattern == "" && q.Limit == sharedLimit && q.Offset%sharedLimit == 0 && q.Offset < sharedPages*sharedLimit
}

func (q ListQuery) cacheKey() string {
	category := q.Category
	if id, err := uuid.Parse(category); err == nil && !canonicalUUID(category) {
		category = id.String() // one key for the many spellings uuid.Parse accepts
	}
	h := sha256.Sum256([]byte(category + "\x00" + q.Pattern))
	return cache.Key("plist", groupKey(q.Group), hex.EncodeToString(h[:12]), cache.Itoa(q.Limit), cache.Itoa(q.Offset))
}

// List returns a page of active products, newest first, and the number of
// matching products. A miss costs at most three statements (the page, its
// variants and prices, and a count when the page is full or past the end);
// a hit costs none, or one cheap availability query for the products whose
// cached figure expired.
func (s *Service) List(ctx context.Context, q ListQuery) (*Page, error) {
	key, shared := q.cacheKey(), q.shared()
	page, version := s.cached(ctx, key, shared)
	if page != nil {
		if err := s.overlayStock(ctx, version, page); err != nil {
			return nil, err
		}
		return page, nil
	}
	rows, err := s.listRows(ctx, q)
	if err != nil {
		return nil, err
	}
	ids, parts, err := s.assemble(ctx, q.Group, rows, true)
	if err != nil {
		return nil, err
	}
	// A short page that is not past the end tells the total by itself; only a
	// full page (or an empty page past the end) needs a count.
	total := int64(q.Offset + len(rows))
	if len(rows) == q.Limit || (len(rows) == 0 && q.Offset > 0) {
		if total, err = s.count(ctx, q); err != nil {
			return nil, err
		}
	}
	p := newPage(ids, parts, true, total)
	// An empty page is not shared: an unknown category would otherwise
	// write a key per name.
	s.keep(ctx, key, version, shared && len(rows) > 0, p)
	s.storeStock(ctx, version, p)
	return p, nil
}

// filter returns the WITH clause and WHERE conditions for q. Only fixed SQL
// fragments are concatenated; every value is a bound parameter.
func filter(q ListQuery) (with, where string, args map[string]any) {
	args = map[string]any{"group": q.Group, "limit": q.Limit, "offset": q.Offset}
	conds := []string{"p.status = 'active'"}
	if q.Category != "" {
		// UNION (not UNION ALL) stops on a cycle in the tree.
		with = `WITH RECURSIVE cats AS (
			SELECT id FROM categories WHERE ` + categoryMatch(q.Category, args) + `
			UNION
			SELECT c.id FROM categories c JOIN cats ON c.parent_id = cats.id) `
		conds = append(conds, "p.category_id IN (SELECT id FROM cats)")
	}
	if q.Pattern != "" {
		conds = append(conds, searchCondition(q.Pattern))
		args["pattern"] = q.Pattern
	}
	return with, " WHERE " + strings.Join(conds, " AND "), args
}

// searchCondition matches the stored folded column products.search_text
// (trigram-indexed). Statements are prepared, and a generic plan cannot see
// the pattern: for a term under three characters (no trigrams) it could
// scan the whole trigram index. Such terms get a predicate the index cannot
// serve, so the plan is a scan in every case; longer terms use the index.
func searchCondition(pattern string) string {
	term := strings.ReplaceAll(strings.Trim(pattern, "%"), `\`, "")
	if utf8.RuneCountInString(term) < 3 {
		return `(p.search_text || '') LIKE shop_fold(@pattern) ESCAPE '\'`
	}
	return `p.search_text LIKE shop_fold(@pattern) ESCAPE '\'`
}

func categoryMatch(category string, args map[string]any) string {
	if id, err := uuid.Parse(category); err == nil {
		args["category"] = id
		return "id = @category"
	}
	args["category"] = category
	return "slug = @category"
}

func (s *Service) listRows(ctx context.Context, q ListQuery) ([]productRow, error) {
	with, where, args := filter(q)
	// No count(*) OVER (): it makes Postgres read every matching row to
	// serve twenty; the total is a separate, index-only count.
	sql := with + "SELECT " + productColumns + " FROM products p" + groupPriceJoin +
		where + " ORDER BY p.created_at DESC, p.id DESC LIMIT @limit OFFSET @offset"
	var rows []productRow
	if err := s.db.WithContext(ctx).Raw(sql, args).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("browse.list: %w", err)
	}
	return rows, nil
}

func (s *Service) count(ctx context.Context, q ListQuery) (int64, error) {
	with, where, args := filter(q)
	delete(args, "group")
	delete(args, "limit")
	delete(args, "offset")
	var params []any
	if len(args) > 0 {
		params = append(params, args)
	}
	var n int64
	if err := s.db.WithContext(ctx).Raw(with+"SELECT count(*) FROM products p"+where, params...).Scan(&n).Error; err != nil {
		return 0, fmt.Errorf("browse.count: %w", err)
	}
	return n, nil
}
