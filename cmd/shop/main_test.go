package main_test

import (
	"bufio"
	"context"
	"debug/buildinfo"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

var shopBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "shop-bin-")
	if err != nil {
		panic(err)
	}
	shopBin = filepath.Join(dir, "shop")
	if out, err := exec.Command("go", "build", "-o", shopBin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build shop: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestHelpListsSubcommands(t *testing.T) {
	out, err := exec.Command(shopBin, "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, sub := range []string{"api", "worker", "scheduler", "migrate", "admin", "seed", "dev", "version"} {
		if !strings.Contains(string(out), "\n  "+sub+" ") {
			t.Errorf("--help does not list %q:\n%s", sub, out)
		}
	}
}

// The binary links one database driver, pgx for Postgres: no MySQL, SQLite
// or SQL Server code, and not a second Postgres driver (what
// `go version -m bin/shop` lists).
func TestBinaryLinksOnlyThePostgresDriver(t *testing.T) {
	info, err := buildinfo.ReadFile(shopBin)
	if err != nil {
		t.Fatal(err)
	}
	forbidden := []string{"mysql", "sqlite", "sqlserver", "mssql", "github.com/lib/pq", "gorm.io/datatypes"}
	pgx := false
	for _, m := range info.Deps {
		for _, f := range forbidden {
			if strings.Contains(m.Path, f) {
				t.Errorf("the binary links %s %s", m.Path, m.Version)
			}
		}
		pgx = pgx || m.Path == "github.com/jackc/pgx/v5"
	}
	if !pgx {
		t.Error("the binary does not link github.com/jackc/pgx/v5")
	}
}

func TestInvalidConfigFailsWithOneLine(t *testing.T) {
	cmd := exec.Command(shopBin, "api")
	cmd.Env = append(os.Environ(), "APP_ENV=development", "PORT=not-a-port")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("shop api started with PORT=not-a-port")
	}
	if lines := strings.Split(strings.TrimSpace(string(out)), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "PORT") {
		t.Fatalf("want one line naming PORT, got:\n%s", out)
	}
}

// SIGTERM with a request in flight: the request completes, the process
// exits 0 within the shutdown timeout.
func TestSIGTERMDrainsInFlightRequests(t *testing.T) {
	_, redisURL := testkit.MustRedis(t)
	port := testkit.FreePort(t)
	cmd := exec.Command(shopBin, "api")
	cmd.Env = append(os.Environ(), "APP_ENV=development", fmt.Sprintf("PORT=%d", port),
		"DATABASE_URL="+testkit.MustDatabaseURL(t), "REDIS_URL="+redisURL, "LOG_LEVEL=warn")
	cmd.Stderr = testkit.TestWriter(t)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	testkit.Eventually(t, 15*time.Second, "shop api to answer", func() bool {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == 200
	})

	// A request whose body is still arriving when SIGTERM lands.
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"email":"nobody@example.com","password":"wrong-password-123"}`
	fmt.Fprintf(conn, "POST /api/v1/admin/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:10])
	time.Sleep(200 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if _, err := conn.Write([]byte(body[10:])); err != nil {
		t.Fatalf("server dropped the in-flight request: %v", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("in-flight request got no response: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode >= 500 {
		t.Fatalf("in-flight request answered %d", resp.StatusCode)
	}

	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("shop api exited with %v, want 0", err)
		}
	case <-time.After(12 * time.Second):
		t.Fatal("shop api did not exit within 12 s of SIGTERM")
	}
}

// The worker and the scheduler, which have no HTTP API, serve their metrics
// on METRICS_ADDR: the tasks the worker ran (by type and outcome) and the
// depth of the queues, in the Prometheus text format, and /healthz for the
// liveness probe.
func TestWorkerServesMetrics(t *testing.T) {
	rdb, redisURL := testkit.MustRedis(t)
	dbURL := testkit.MustDatabaseURL(t)
	start := func(process string) string {
		port := testkit.FreePort(t)
		cmd := exec.Command(shopBin, process)
		cmd.Env = append(os.Environ(), "APP_ENV=development", fmt.Sprintf("METRICS_ADDR=127.0.0.1:%d", port),
			"DATABASE_URL="+dbURL, "REDIS_URL="+redisURL, "LOG_LEVEL=warn")
		cmd.Stderr = testkit.TestWriter(t)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		base := fmt.Sprintf("http://127.0.0.1:%d", port)
		testkit.Eventually(t, 15*time.Second, "the "+process+"'s metrics listener", func() bool {
			resp, err := http.Get(base + "/healthz")
			if err == nil {
				resp.Body.Close()
			}
			return err == nil && resp.StatusCode == 200
		})
		return base
	}
	base := start("worker")
	testkit.Do(t, http.MethodGet, start("scheduler")+"/metrics", testkit.Req{}).Expect(t, http.StatusOK)

	q := asynq.NewClientFromRedisClient(rdb)
	task, opts := tasks.NewOutboxDispatchTask(time.Now())
	if err := tasks.Enqueue(context.Background(), q, task, opts...); err != nil {
		t.Fatal(err)
	}
	var families map[string]*dto.MetricFamily
	testkit.Eventually(t, 15*time.Second, "the dispatch task counted in /metrics", func() bool {
		resp, err := http.Get(base + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("/metrics answered %d", resp.StatusCode)
		}
		parser := expfmt.NewTextParser(model.UTF8Validation)
		if families, err = parser.TextToMetricFamilies(resp.Body); err != nil {
			t.Fatalf("/metrics does not parse: %v", err)
		}
		return metricValue(families["worker_tasks_processed_total"], map[string]string{"type": tasks.TypeOutboxDispatch, "outcome": "ok"}) >= 1
	})
	for _, state := range []string{"pending", "active", "scheduled", "retry", "archived"} {
		if v := metricValue(families["asynq_queue_tasks"], map[string]string{"queue": tasks.QueueDefault, "state": state}); v < 0 {
			t.Errorf("no asynq_queue_tasks for the default queue's %s tasks in /metrics", state)
		}
	}
}

// metricValue is the value of f's series whose labels include want; -1 when
// there is none.
func metricValue(f *dto.MetricFamily, want map[string]string) float64 {
	if f == nil {
		return -1
	}
	for _, m := range f.Metric {
		got := map[string]string{}
		for _, l := range m.Label {
			got[l.GetName()] = l.GetValue()
		}
		match := true
		for k, v := range want {
			match = match && got[k] == v
		}
		if !match {
			continue
		}
		if m.Counter != nil {
			return m.Counter.GetValue()
		}
		return m.Gauge.GetValue()
	}
	return -1
}
