package catalogapi_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/gocommerce/shop/models"
)

// TestCatalogWritesAreAudited: each write leaves an entry naming the action
// and the entity; refused writes leave none.
func TestCatalogWritesAreAudited(t *testing.T) {
	e := newEnv(t)
	p := e.product(t, nil)
	id := p["id"].(string)
	e.do(t, http.MethodPatch, "/products/"+id, map[string]any{"title": "Renamed"}).Expect(t, http.StatusOK)
	e.do(t, http.MethodPatch, "/products/"+id, map[string]any{"price": 0}).ExpectField(t, "price")
	e.orderProduct(t, id)
	e.do(t, http.MethodDelete, "/products/"+id, nil).Expect(t, http.StatusNoContent)

	var entries []models.AdminAuditLog
	e.app.DB.Where("entity_id = ?", id).Order("created_at").Find(&entries)
	var actions []string
	for _, en := range entries {
		actions = append(actions, en.Action)
	}
	if len(actions) != 3 || actions[0] != "product.create" || actions[1] != "product.update" || actions[2] != "product.delete" {
		t.Fatalf("actions %v", actions)
	}
	if string(entries[2].Metadata) == "" || !contains(string(entries[2].Metadata), `"archived": true`) {
		t.Fatalf("delete metadata %s", entries[2].Metadata)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestConcurrentCreatesGetDistinctSlugs: creates racing for one generated
// slug all succeed, each with its own slug.
func TestConcurrentCreatesGetDistinctSlugs(t *testing.T) {
	e := newEnv(t)
	const n = 8
	slugs := make(chan string, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.do(t, http.MethodPost, "/products", map[string]any{"title": "Same Title", "price": 1})
			if r.Status != http.StatusCreated {
				t.Errorf("status %d: %s", r.Status, r.Body)
				return
			}
			slugs <- r.Map(t)["slug"].(string)
		}()
	}
	wg.Wait()
	close(slugs)
	seen := map[string]bool{}
	for s := range slugs {
		if seen[s] {
			t.Fatalf("slug %s given twice", s)
		}
		seen[s] = true
	}
	if len(seen) != n || !seen["same-title"] {
		t.Fatalf("slugs %v", seen)
	}
}
