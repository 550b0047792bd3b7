//go:build faults

package faults_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/testkit"
	"gorm.io/gorm"
)

// shopDB is url's cluster with its database changed to shop.
func shopDB(url string) string {
	return strings.Replace(url, "/postgres?", "/shop?", 1)
}

// caughtUp waits until replica has replayed everything primary has written.
func caughtUp(t *testing.T, primary, replica *gorm.DB) {
	t.Helper()
	var lsn string
	if err := primary.Raw(`SELECT pg_current_wal_lsn()::text`).Scan(&lsn).Error; err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 20*time.Second, "the replica to catch up", func() bool {
		var done bool
		replica.Raw(`SELECT pg_last_wal_replay_lsn() >= ?::pg_lsn`, lsn).Scan(&done)
		return done
	})
}

// With DATABASE_REPLICA_URLS the storefront's catalog reads come from the
// streaming replica, while writes and admin reads go to the primary; when
// the replica stops, those reads answer the 503 envelope (never a 500), the
// rest of the service keeps working and /readyz stays 200; when it is back,
// so are they.
func TestStorefrontReadsFromTheReplica(t *testing.T) {
	c := newCluster(t)
	replica := c.PG.StartReplica(t)
	ctx := context.Background()
	rdb, err := database.Open(ctx, shopDB(replica.URL), database.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { database.Close(rdb) })

	seen := testkit.MustStoreProduct(t, c.DB, testkit.StoreProduct{Title: "Seen Lamp"})
	caughtUp(t, c.DB, rdb)
	// The catalog cache is off so that every storefront read reaches a database.
	api := c.Start("api", "api", "DATABASE_REPLICA_URLS="+shopDB(replica.URL), "CACHE_ENABLED=false")
	admin := c.AdminToken("admin")
	auth := map[string]string{"Authorization": "Bearer " + admin}

	// Replay paused: what the primary writes now is not on the replica.
	if err := rdb.Exec(`SELECT pg_wal_replay_pause()`).Error; err != nil {
		t.Fatal(err)
	}
	hidden := testkit.MustStoreProduct(t, c.DB, testkit.StoreProduct{Title: "Hidden Lamp"})
	if s, b, err := call("GET", api.URL+"/products/"+hidden.ID.String(), nil, nil); err != nil || s != 404 {
		t.Fatalf("storefront product page of a row only the primary has: %d %s %v, want 404 (read from the replica)", s, b, err)
	}
	if s, b, err := call("GET", api.URL+"/api/v1/admin/products/"+hidden.ID.String(), nil, auth); err != nil || s != 200 {
		t.Fatalf("admin product read: %d %s %v, want 200 (read from the primary)", s, b, err)
	}
	// A write goes to the primary (the replica would refuse it: read-only).
	cart := map[string]string{"X-Session-Id": "replica-cart-0001"}
	if s, b, err := call("POST", api.URL+"/cart/items", map[string]any{"variantId": hidden.Variants[0].ID, "quantity": 1}, cart); err != nil || s != 201 {
		t.Fatalf("add to cart with replay paused: %d %s %v", s, b, err)
	}
	if err := rdb.Exec(`SELECT pg_wal_replay_resume()`).Error; err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 20*time.Second, "the storefront to show the product once replayed", func() bool {
		s, _, _ := call("GET", api.URL+"/products/"+hidden.ID.String(), nil, nil)
		return s == 200
	})

	// The replica stops.
	replica.Stop()
	for _, path := range []string{"/products?search=lamp", "/products/" + seen.ID.String(), "/products/" + seen.ID.String() + "/reviews"} {
		s, b, err := call("GET", api.URL+path, nil, nil)
		if err != nil || s != 503 || !isUnavailableEnvelope(b) {
			t.Errorf("GET %s with the replica down: %d %s %v, want the 503 envelope", path, s, b, err)
		}
	}
	if s, b, _ := call("GET", api.URL+"/readyz", nil, nil); s != 200 {
		t.Errorf("/readyz with the replica down: %d %s, want 200 (the primary and Redis are up)", s, b)
	}
	if s, b, _ := call("GET", api.URL+"/cart", nil, cart); s != 200 {
		t.Errorf("cart with the replica down: %d %s", s, b)
	}
	if s, b, _ := call("GET", api.URL+"/api/v1/admin/products/"+seen.ID.String(), nil, auth); s != 200 {
		t.Errorf("admin read with the replica down: %d %s", s, b)
	}

	// Back again: the same process serves from it without a restart.
	replica.Start()
	testkit.Eventually(t, 30*time.Second, "storefront reads after the replica is back", func() bool {
		s, b, _ := call("GET", api.URL+"/products?search=lamp", nil, nil)
		var page struct {
			Data []json.RawMessage `json:"data"`
		}
		return s == 200 && json.Unmarshal(b, &page) == nil && len(page.Data) == 2
	})
}
