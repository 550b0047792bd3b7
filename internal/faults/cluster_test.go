//go:build faults

package faults_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/hibiken/asynq"
	"gorm.io/gorm"
)

var shopBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "shop-faults-")
	if err != nil {
		panic(err)
	}
	shopBin = filepath.Join(dir, "shop")
	if out, err := exec.Command("go", "build", "-o", shopBin, "../../cmd/shop").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build shop: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const gatewaySecret = "faults-gateway-webhook-secret"

// cluster is a private Postgres, a private Redis and the shop processes
// running against them.
type cluster struct {
	t     *testing.T
	PG    *testkit.PrivatePostgres
	Redis *testkit.PrivateRedis
	DBURL string
	DB    *gorm.DB
	procs []*shopProc
	env   []string
}

// shopProc is one running `shop <sub>` process.
type shopProc struct {
	Name string
	Sub  string
	URL  string // for api processes
	cmd  *exec.Cmd
	env  []string
	c    *cluster
}

func newCluster(t *testing.T, extraEnv ...string) *cluster {
	t.Helper()
	c := &cluster{t: t, PG: testkit.StartPostgres(t), Redis: testkit.StartRedis(t)}
	ctx := context.Background()
	c.DBURL = c.PG.URL[:len(c.PG.URL)-len("/postgres?sslmode=disable")] + "/shop?sslmode=disable"
	if _, err := database.EnsureDatabase(ctx, c.DBURL); err != nil {
		t.Fatal(err)
	}
	if err := database.Migrate(ctx, c.DBURL, "up", nil); err != nil {
		t.Fatal(err)
	}
	db, err := database.Open(ctx, c.DBURL, database.Options{MaxConns: 5})
	if err != nil {
		t.Fatal(err)
	}
	c.DB = db
	t.Cleanup(func() {
		for _, p := range c.procs {
			p.Kill()
		}
		database.Close(db)
	})
	c.env = append([]string{
		"APP_ENV=production", "LOG_LEVEL=warn",
		"DATABASE_URL=" + c.DBURL, "REDIS_URL=" + c.Redis.URL,
		"ADMIN_JWT_SECRET=faults-admin-jwt-secret-0123456789abcdef",
		"CUSTOMER_JWT_SECRET=faults-customer-jwt-secret-0123456789ab",
		"GATEWAY_WEBHOOK_SECRET=" + gatewaySecret,
		"COOKIE_SECURE=false", "SHUTDOWN_TIMEOUT=10s", "DB_QUERY_TIMEOUT=3s",
	}, extraEnv...)
	return c
}

// AdminToken creates an admin with role through `shop admin create` and
// logs it in through the first api process.
func (c *cluster) AdminToken(role string) string {
	c.t.Helper()
	email := fmt.Sprintf("%s-%d@example.com", role, time.Now().UnixNano())
	cmd := exec.Command(shopBin, "admin", "create", "--email", email, "--password", "fault-admin-password", "--role", role)
	cmd.Env = append(os.Environ(), c.env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		c.t.Fatalf("admin create: %v\n%s", err, out)
	}
	var api *shopProc
	for _, p := range c.procs {
		if p.Sub == "api" {
			api = p
			break
		}
	}
	body, _ := json.Marshal(map[string]string{"email": email, "password": "fault-admin-password"})
	resp, err := http.Post(api.URL+"/api/v1/admin/auth/login", "application/json", bytes.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
	}
	json.NewDecoder(resp.Body).Decode(&out)
	if out.AccessToken == "" {
		c.t.Fatalf("admin login answered %d", resp.StatusCode)
	}
	return out.AccessToken
}

// Start runs `shop sub` (an api gets a free port) and waits until it is up.
func (c *cluster) Start(name, sub string, extraEnv ...string) *shopProc {
	c.t.Helper()
	p := c.Spawn(name, sub, extraEnv...)
	p.waitUp()
	return p
}

// Spawn runs `shop sub` and returns at once, without waiting for it to be
// up: for a test that must act within the process's first moments.
func (c *cluster) Spawn(name, sub string, extraEnv ...string) *shopProc {
	c.t.Helper()
	p := &shopProc{Name: name, Sub: sub, c: c, env: append(append([]string{}, c.env...), extraEnv...)}
	if sub == "api" {
		port := testkit.FreePort(c.t)
		p.URL = fmt.Sprintf("http://127.0.0.1:%d", port)
		p.env = append(p.env, fmt.Sprintf("PORT=%d", port))
	}
	p.spawn()
	c.procs = append(c.procs, p)
	return p
}

// Inspector reads the cluster's task queues.
func (c *cluster) Inspector() *asynq.Inspector {
	c.t.Helper()
	opt, err := asynq.ParseRedisURI(c.Redis.URL)
	if err != nil {
		c.t.Fatal(err)
	}
	insp := asynq.NewInspector(opt)
	c.t.Cleanup(func() { insp.Close() })
	return insp
}

// queuesIdle reports whether no task is waiting, running or waiting to be
// retried on any queue (tasks scheduled for later, such as the delayed
// analytics touch, do not count).
func queuesIdle(insp *asynq.Inspector) bool {
	queues, err := insp.Queues()
	if err != nil {
		return false
	}
	for _, q := range queues {
		info, err := insp.GetQueueInfo(q)
		if err != nil || info.Pending+info.Active+info.Retry > 0 {
			return false
		}
	}
	return true
}

func (p *shopProc) start() {
	p.c.t.Helper()
	p.spawn()
	p.waitUp()
}

func (p *shopProc) spawn() {
	p.c.t.Helper()
	p.cmd = exec.Command(shopBin, p.Sub)
	p.cmd.Env = append(os.Environ(), p.env...)
	p.cmd.Stdout = testkit.TestWriter(p.c.t)
	p.cmd.Stderr = p.cmd.Stdout
	if err := p.cmd.Start(); err != nil {
		p.c.t.Fatal(err)
	}
}

func (p *shopProc) waitUp() {
	p.c.t.Helper()
	if p.Sub == "api" {
		testkit.Eventually(p.c.t, 20*time.Second, p.Name+" to answer /healthz", func() bool {
			resp, err := http.Get(p.URL + "/healthz")
			if err == nil {
				resp.Body.Close()
			}
			return err == nil && resp.StatusCode == 200
		})
	} else {
		time.Sleep(500 * time.Millisecond)
	}
}

// Restart starts the process again with the same settings.
func (p *shopProc) Restart() { p.start() }

// Kill sends SIGKILL: no cleanup, no graceful shutdown.
func (p *shopProc) Kill() {
	if p.cmd != nil && p.cmd.Process != nil && p.cmd.ProcessState == nil {
		p.cmd.Process.Kill()
		p.cmd.Wait()
	}
}

// Term sends SIGTERM and returns the exit error (nil for exit 0).
func (p *shopProc) Term(timeout time.Duration) error {
	p.SendTerm()
	return p.Wait(timeout)
}

// SendTerm sends SIGTERM and returns at once.
func (p *shopProc) SendTerm() { p.cmd.Process.Signal(syscall.SIGTERM) }

// Wait waits for the process to exit and returns the exit error (nil for
// exit 0); a process still running after timeout is killed.
func (p *shopProc) Wait(timeout time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(timeout):
		p.cmd.Process.Kill()
		return fmt.Errorf("%s did not exit within %s of SIGTERM", p.Name, timeout)
	}
}
