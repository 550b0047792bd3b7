package catalog

import (
	"fmt"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"gorm.io/gorm"
)

// sluggedTables are the tables with a unique slug column; table names are
// never taken from input.
var sluggedTables = map[string]string{
	"products":    "product",
	"categories":  "category",
	"collections": "collection",
}

// slugFor returns the slug to store: the explicit one (checked), else one
// generated from name that no row of table holds yet: the slugified name,
// then name-2, name-3, ... It reports whether the slug was generated, since
// only a generated slug is retried when a concurrent insert takes it first.
func slugFor(tx *gorm.DB, table, explicit, name string) (slug string, generated bool, err error) {
	if explicit != "" {
		return explicit, false, checkSlug(explicit)
	}
	fallback, ok := sluggedTables[table]
	if !ok {
		return "", false, fmt.Errorf("catalog.slug: table %q has no slug", table)
	}
	base := database.Slugify(name)
	if base == "" {
		base = fallback
	}
	// Creates generating from the same base wait for each other until
	// commit, so the next one sees the slug just taken and picks another.
	if err := tx.Exec(`SELECT pg_advisory_xact_lock(hashtext(?))`, "slug:"+table+":"+base).Error; err != nil {
		return "", true, fmt.Errorf("catalog.slug: %w", err)
	}
	var taken []string
	err = tx.Raw(`SELECT slug FROM `+table+` WHERE slug = ? OR slug LIKE ? ESCAPE '\'`,
		base, database.LikeEscape(base)+"-%").Scan(&taken).Error
	if err != nil {
		return "", true, fmt.Errorf("catalog.slug: %w", err)
	}
	used := make(map[string]bool, len(taken))
	for _, s := range taken {
		used[s] = true
	}
	slug = base
	for n := 2; used[slug]; n++ {
		slug = fmt.Sprintf("%s-%d", base, n)
	}
	return slug, true, nil
}

// slugAttempts bounds retries of a create whose generated slug was taken
// meanwhile by a write that did not take the lock (an explicit slug).
const slugAttempts = 3

// withSlugRetry runs create again when it fails on a generated slug's
// uniqueness; an explicit slug that is taken is a CONFLICT on field slug.
func withSlugRetry(resource string, create func() (generated bool, err error)) error {
	for attempt := 1; ; attempt++ {
		generated, err := create()
		if err == nil || !isSlugConflict(err) {
			return err
		}
		if !generated || attempt == slugAttempts {
			return slugConflict(resource, err)
		}
	}
}

func isSlugConflict(err error) bool {
	return database.IsUnique(err) && strings.HasSuffix(database.Constraint(err), "_slug_key")
}

func slugConflict(resource string, err error) error {
	return apperr.Wrap(apperr.Conflict, "a "+resource+" with this slug already exists", err).
		WithDetails(map[string]any{"field": "slug", "issue": "already exists"})
}
