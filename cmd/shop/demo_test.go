package main_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/testkit"
)

// The README's walkthrough (scripts/demo.sh, the same commands) runs as
// written against a fresh server started the way `make run` starts one:
// `shop dev` on a database it creates, migrates and seeds itself, with its
// own Redis database and port. The server prints where the console, the API
// reference and the queue dashboard are; the script ends with a refunded
// return, and the database agrees.
func TestREADMEWalkthrough(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s not installed: CI runs the README walkthrough (apt-get install %s)", tool, tool)
			}
			t.Skipf("%s not installed (apt-get install %s); skipping the README walkthrough", tool, tool)
		}
	}
	dbURL := testkit.MustNewDatabaseURL(t)
	_, redisURL := testkit.MustRedis(t)
	port := testkit.FreePort(t)
	env := append(toolEnv(), "DATABASE_URL="+dbURL, "REDIS_URL="+redisURL, fmt.Sprintf("PORT=%d", port), "LOG_LEVEL=warn",
		// The demo seed uploads pictures: keep its files out of the source tree.
		"MEDIA_STORAGE=local", "MEDIA_DIR="+t.TempDir())

	server := exec.Command(shopBin, "dev")
	server.Env = env
	var banner syncBuffer
	server.Stdout, server.Stderr = &banner, testkit.TestWriter(t)
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		server.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { server.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			server.Process.Kill()
			<-done
		}
	})
	base := fmt.Sprintf("http://localhost:%d", port)
	testkit.Eventually(t, 3*time.Minute, "shop dev to create, migrate and seed its database and answer /readyz", func() bool {
		resp, err := http.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == http.StatusOK
	})
	for _, want := range []string{"Admin login: admin@example.com / ", "Admin console:    " + base + "/admin/",
		"API reference:    " + base + "/api/v1/docs", "Queue dashboard:  " + base + "/api/v1/admin/queues/"} {
		if !strings.Contains(banner.String(), want) {
			t.Errorf("shop dev did not print %q:\n%s", want, banner.String())
		}
	}

	// The script runs bin/shop from the directory it is started in, as a
	// person at the repository root would after `make build`.
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(shopBin, filepath.Join(dir, "bin", "shop")); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("../../scripts/demo.sh")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	demo := exec.CommandContext(ctx, "bash", script)
	demo.Dir = dir
	demo.Env = append(env, "SHOP="+base)
	out, err := demo.CombinedOutput()
	t.Logf("scripts/demo.sh:\n%s", out)
	if err != nil {
		t.Fatalf("the walkthrough failed: %v", err)
	}
	last := lastLine(string(out))
	if !strings.Contains(last, `"status":"delivered","paymentStatus":"partially_refunded"`) {
		t.Fatalf("the walkthrough's last answer is %s, want the delivered, partly refunded order", last)
	}

	db, err := database.Open(context.Background(), dbURL, database.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer database.Close(db)
	var state struct {
		Orders, Fulfilled, Refunded, Restocked, CODPaid int
	}
	db.Raw(`SELECT (SELECT count(*) FROM orders) AS orders,
		(SELECT count(*) FROM orders o WHERE o.payment_method = 'cod' AND o.payment_status = 'paid' AND o.cod_fee > 0
		   AND EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id AND p.provider = 'offline')) AS cod_paid,
		(SELECT count(*) FROM fulfillments WHERE status = 'delivered') AS fulfilled,
		(SELECT count(*) FROM returns r JOIN refunds f ON f.return_id = r.id WHERE r.status = 'refunded' AND f.status = 'processed') AS refunded,
		(SELECT coalesce(sum(restocked_quantity), 0) FROM return_items) AS restocked`).Scan(&state)
	if state.Orders != 2 || state.Fulfilled != 1 || state.Refunded != 1 || state.Restocked != 1 || state.CODPaid != 1 {
		t.Fatalf("after the walkthrough: %+v, want an order delivered with one refunded return of one restocked unit, "+
			"and a cash on delivery order paid by a recorded payment", state)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// syncBuffer is a bytes.Buffer written by a child process and read by the
// test at the same time.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
