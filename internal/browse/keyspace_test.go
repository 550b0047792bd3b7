package browse_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Anonymous requests cannot grow Redis: 10,000 random searches, plus random
// deep pages, page sizes, categories, product slugs and spellings of real
// ids, add at most a handful of keys to the Redis that also holds the
// queues, rate limits and webhook markers.
func TestRandomBrowsingDoesNotGrowRedis(t *testing.T) {
	app := testkit.MustApp(t)
	cat := models.Category{ID: uuid.New(), Name: "Apparel", Slug: "apparel"}
	app.DB.Create(&cat)
	var products []*models.Product
	for range 3 {
		products = append(products, testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{CategoryID: &cat.ID}))
	}
	get := func(path string) (int, error) {
		resp, err := http.Get(app.URL + path)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		_, err = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, err
	}
	// What every shopper reads, cached before counting.
	warm := []string{"/products", "/products?category=apparel", "/products?category=" + cat.ID.String()}
	for _, p := range products {
		warm = append(warm, "/products/"+p.ID.String(), "/products/"+p.Slug)
	}
	for _, path := range warm {
		if status, err := get(path); err != nil || status != http.StatusOK {
			t.Fatalf("GET %s: %d %v", path, status, err)
		}
	}
	// The first pages at the default size are shared through Redis (by every
	// API process), one key per page, and so are product pages.
	if keys := app.Redis.Keys(t.Context(), "*:plist:*").Val(); len(keys) != 3 {
		t.Fatalf("listing pages in Redis: %v, want the plain, by-slug and by-id pages", keys)
	}
	before := app.Redis.DBSize(t.Context()).Val()

	const searches = 10_000
	paths := make(chan string)
	go func() {
		defer close(paths)
		r := rand.New(rand.NewPCG(1, 2))
		word := func() string {
			b := make([]byte, 3+r.IntN(10))
			for i := range b {
				b[i] = byte('a' + r.IntN(26))
			}
			return string(b)
		}
		for range searches {
			paths <- fmt.Sprintf("/products?search=%s&page=%d&limit=%d", word(), 1+r.IntN(3), 1+r.IntN(100))
		}
		for i := range 2_000 {
			id := products[r.IntN(len(products))].ID
			switch i % 6 {
			case 0: // deep pages
				paths <- fmt.Sprintf("/products?page=%d&limit=20", 6+r.IntN(10_000))
			case 1: // any page size
				paths <- fmt.Sprintf("/products?page=%d&limit=%d", 1+r.IntN(5), 1+r.IntN(100))
			case 2: // unknown categories
				paths <- "/products?category=" + word()
			case 3: // a real category's id, spelled differently
				paths <- "/products?category=" + url.QueryEscape(respell(r, cat.ID))
			case 4: // unknown products
				paths <- "/products/" + word()
			case 5: // a real product's id, spelled differently
				paths <- "/products/" + url.PathEscape(respell(r, id))
			}
		}
	}()
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for path := range paths {
				status, err := get(path)
				if err != nil {
					t.Errorf("GET %s: %v", path, err)
				}
				mu.Lock()
				statuses[status]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if statuses[http.StatusOK]+statuses[http.StatusNotFound] != searches+2_000 {
		t.Fatalf("answers by status: %v", statuses)
	}
	after := app.Redis.DBSize(t.Context()).Val()
	t.Logf("Redis keys: %d before, %d after %d requests", before, after, searches+2_000)
	if after-before > 5 {
		t.Fatalf("random browsing added %d Redis keys (%d → %d)", after-before, before, after)
	}
}

// respell writes id in one of the other forms uuid.Parse accepts.
func respell(r *rand.Rand, id uuid.UUID) string {
	s := []byte(id.String())
	for i := range s {
		if 'a' <= s[i] && s[i] <= 'f' && r.IntN(2) == 0 {
			s[i] -= 'a' - 'A'
		}
	}
	switch r.IntN(3) {
	case 0:
		return "{" + string(s) + "}"
	case 1:
		return "urn:uuid:" + string(s)
	}
	return strings.ReplaceAll(string(s), "-", "")
}
