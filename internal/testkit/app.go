package testkit

import (
	"context"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/api"
	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/logging"
	"github.com/gocommerce/shop/internal/system"
	"github.com/gocommerce/shop/worker"
)

// App is an in-process service on a real port, over a fresh database and an
// isolated Redis database. Its connections and services are those of the
// embedded composition root, built as in production.
type App struct {
	*app.App
	Server *api.Server
	// URL is the base address, e.g. http://127.0.0.1:41234.
	URL string
	// DatabaseURL and RedisURL locate the app's private stores.
	DatabaseURL string
	RedisURL    string
}

// Option adjusts how MustApp builds the app.
type Option func(*appOptions)

type appOptions struct {
	worker    bool
	open      []app.Option
	configure []func(*config.Config)
	dbURL     string
	redisURL  string
}

// WithWorker also runs the asynq worker in-process on the app's Redis.
func WithWorker() Option { return func(o *appOptions) { o.worker = true } }

// WithOpen passes options to app.Open (e.g. app.WithTracing).
func WithOpen(opts ...app.Option) Option {
	return func(o *appOptions) { o.open = append(o.open, opts...) }
}

// WithConfig changes the configuration before the app is built.
func WithConfig(f func(*config.Config)) Option {
	return func(o *appOptions) { o.configure = append(o.configure, f) }
}

// WithStores uses the given database and Redis instead of fresh ones (for a
// second app instance sharing the first one's state).
func WithStores(dbURL, redisURL string) Option {
	return func(o *appOptions) { o.dbURL, o.redisURL = dbURL, redisURL }
}

// MustConfig returns a development configuration pointing at the given stores.
func MustConfig(tb testing.TB, dbURL, redisURL string) *config.Config {
	tb.Helper()
	cfg, err := config.Load(config.Development)
	if err != nil {
		tb.Fatalf("testkit: config: %v", err)
	}
	cfg.DatabaseURL, cfg.RedisURL = dbURL, redisURL
	cfg.LogLevel = "warn"
	if lvl := os.Getenv("TEST_LOG_LEVEL"); lvl != "" {
		cfg.LogLevel = lvl
	}
	cfg.ShutdownTimeout = 5 * time.Second
	cfg.Media.Dir = tb.TempDir() // local media files: the test's own, removed after it
	return cfg
}

// MustDeps opens the application over cfg through the composition root
// (app.Open): its connections and every service, as a process has them.
// The connections close when tb ends.
func MustDeps(tb testing.TB, cfg *config.Config, opts ...app.Option) *app.App {
	tb.Helper()
	log := logging.New(TestWriter(tb), true, cfg.LogLevel)
	a, err := app.Open(context.Background(), cfg, log, opts...)
	if err != nil {
		tb.Fatalf("testkit: app: %v", err)
	}
	tb.Cleanup(a.Close)
	return a
}

// MustApp starts the API (and, WithWorker, the worker) for tb and stops them
// when tb ends.
func MustApp(tb testing.TB, opts ...Option) *App {
	tb.Helper()
	var o appOptions
	for _, f := range opts {
		f(&o)
	}
	if o.dbURL == "" {
		o.dbURL = MustDatabaseURL(tb)
	}
	if o.redisURL == "" {
		_, o.redisURL = MustRedis(tb)
	}
	cfg := MustConfig(tb, o.dbURL, o.redisURL)
	for _, f := range o.configure {
		f(cfg)
	}
	a := MustDeps(tb, cfg, o.open...)
	srv := api.New(a)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("testkit: listen: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); srv.Serve(ctx, ln) }()
	if o.worker {
		w := worker.New(a)
		wg.Add(1)
		go func() { defer wg.Done(); w.Run(ctx) }()
	}
	tb.Cleanup(func() { cancel(); wg.Wait() })
	return &App{App: a, Server: srv, URL: "http://" + ln.Addr().String(), DatabaseURL: o.dbURL, RedisURL: o.redisURL}
}

// Eventually polls cond every 20 ms until it holds or timeout passes.
func Eventually(tb testing.TB, timeout time.Duration, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("testkit: timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestWriter is an io.Writer that sends log lines to tb.Log while tb runs
// and drops them afterwards (background goroutines may outlive the test).
func TestWriter(tb testing.TB) *testWriter {
	w := &testWriter{tb: tb}
	if _, fuzz := tb.(*testing.F); fuzz {
		// A fuzz target may not call f.Log; its logs are dropped.
		w.done = true
		return w
	}
	tb.Cleanup(func() { w.mu.Lock(); w.done = true; w.mu.Unlock() })
	return w
}

type testWriter struct {
	mu   sync.Mutex
	tb   testing.TB
	done bool
}

func (w *testWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done {
		w.tb.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

// WaitJob waits until the back-office job id has finished (completed or
// failed), watching the queue itself: polling GET /admin/jobs/{id} would
// spend the admin's general rate limit (100 a minute) within seconds. Then
// it reads the job once through that route, as a client would, into out.
func (a *App) WaitJob(tb testing.TB, token, id string, out any) {
	tb.Helper()
	Eventually(tb, 60*time.Second, "job "+id+" to finish", func() bool {
		j, err := a.System.Job(context.Background(), id)
		return err == nil && (j.State == system.JobCompleted || j.State == system.JobFailed)
	})
	a.Do(tb, http.MethodGet, "/api/v1/admin/jobs/"+id, Req{Token: token}).Expect(tb, http.StatusOK).JSON(tb, out)
}
