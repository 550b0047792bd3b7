package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/gocommerce/shop/internal/messaging/messagingsim"
	"log"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"gorm.io/gorm"
)

const (
	benchAdminEmail    = "bench-admin@example.com"
	benchAdminPassword = "bench-admin-password-1"
	webhookSecret      = "bench-gateway-webhook-secret"
	// paymentProvider is the gateway the processes run with: the built-in
	// simulator, which opens a checkout's gateway order in process (no
	// call to Razorpay); the report says so beside the figures it affects.
	paymentProvider = "simulator"
)

type bench struct {
	o               options
	bin, work       string
	luaDir          string // the wrk scripts, written out (writeLua)
	dbURL, redisURL string
	db              *gorm.DB
	data            *dataset
	api, worker     *proc
	apiURL          string
	token           string
	// Ceilings are measured before and after the endpoints; ratios use the
	// mean, since this machine's speed drifts during a run.
	fiberCeiling, fiberBefore, fiberAfter map[int]float64
	pgCeiling                             map[int]float64
	results                               []Result
	notes                                 []string
	// cpuStart is the CPU used when the current measured run began.
	cpuStart cpuShare
	// emulatedVacuum is set once vacuumDue stood in for autovacuum.
	emulatedVacuum bool
	// compacted is set once compactCounters stood in for the scheduler.
	compacted           bool
	apiRSS, workerRSS   float64
	webhookOrdersPerSec float64
	webhookOrders       int
	// sim is the messaging simulator (messages.go) at simURL.
	sim    *messagingsim.Server
	simURL string
	media  mediaFigures
	scale  scaleFigures
	soak   soakFigures
}

// env is the production configuration the processes run with; rate limits
// are raised so that the benchmark measures work, not the limiter.
func (b *bench) env(extra ...string) []string {
	return append([]string{
		"APP_ENV=production", "LOG_LEVEL=warn",
		"DATABASE_URL=" + b.dbURL, "REDIS_URL=" + b.redisURL,
		"ADMIN_JWT_SECRET=bench-admin-jwt-secret-0123456789abcdef",
		"CUSTOMER_JWT_SECRET=bench-customer-jwt-secret-0123456789abcd",
		"GATEWAY_WEBHOOK_SECRET=" + webhookSecret, "PAYMENT_PROVIDER=" + paymentProvider,
		"ADMIN_GENERAL_RATE_LIMIT=100000000", "ADMIN_ANALYTICS_RATE_LIMIT=100000000",
		"CHECKOUT_SESSION_TTL=2h", "COOKIE_SECURE=false",
		// The run outlasts the default 15 minutes of the admin token it
		// logs in for once (the media uploads came after it expired).
		"ADMIN_ACCESS_TOKEN_EXPIRES_IN=2h",
		// The api stores uploads, the worker renders them: one directory.
		"MEDIA_DIR=" + filepath.Join(b.work, "media"),
	}, append(append(append(carrierEnv(), gstEnv()...), b.messagingEnv()...), extra...)...)
}

func (b *bench) startAPI(extra ...string) error {
	port := freePort()
	b.apiURL = fmt.Sprintf("http://127.0.0.1:%d", port)
	p, err := start("api", b.work, b.bin, []string{"api"}, b.env(append(extra, fmt.Sprintf("PORT=%d", port))...))
	if err != nil {
		return err
	}
	b.api = p
	return waitHTTP(b.apiURL+"/readyz", 30*time.Second)
}

func (b *bench) stopAll() {
	b.api.stop()
	b.worker.stop()
}

// login creates the benchmark's super_admin and returns an access token.
func (b *bench) login() error {
	cmd := exec.Command(b.bin, "admin", "create", "--email", benchAdminEmail, "--password", benchAdminPassword, "--role", "super_admin")
	cmd.Env = append(os.Environ(), b.env()...)
	if out, err := cmd.CombinedOutput(); err != nil && !strings.Contains(string(out), "already exists") {
		return fmt.Errorf("admin create: %v\n%s", err, out)
	}
	body, _ := json.Marshal(map[string]string{"email": benchAdminEmail, "password": benchAdminPassword})
	resp, err := http.Post(b.apiURL+"/api/v1/admin/auth/login", "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.AccessToken == "" {
		return fmt.Errorf("admin login: status %d", resp.StatusCode)
	}
	b.token = out.AccessToken
	return nil
}

// measureCeilings measures the bare Fiber handler and pgbench -S at each
// concurrency. Called before and after the endpoints (after=true).
func (b *bench) measureCeilings(ctx context.Context, after bool) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	port := freePort()
	p, err := start("ceiling", b.work, self, []string{"-serve-ceiling", fmt.Sprintf("127.0.0.1:%d", port)}, nil)
	if err != nil {
		return err
	}
	defer p.stop()
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	if err := waitHTTP(url, 10*time.Second); err != nil {
		return err
	}
	if b.fiberBefore == nil {
		b.fiberBefore, b.fiberAfter, b.fiberCeiling, b.pgCeiling = map[int]float64{}, map[int]float64{}, map[int]float64{}, map[int]float64{}
	}
	var pgURL string
	if !after {
		if pgURL, err = freshDatabase(ctx, b.o.dbServer, "shop_pgbench"); err != nil {
			return err
		}
	}
	for _, c := range b.o.conns {
		wrkRun("warmup", url, "", c, b.o.warmup, nil)
		r, err := wrkRun("bare Fiber JSON", url, "", c, b.o.duration, nil)
		if err != nil {
			return err
		}
		if after {
			b.fiberAfter[c] = r.RPS
			b.fiberCeiling[c] = (b.fiberBefore[c] + r.RPS) / 2
			log.Printf("bench: Fiber ceiling at %d connections after the endpoints: %.0f req/s", c, r.RPS)
			continue
		}
		b.fiberBefore[c] = r.RPS
		tps, err := pgbenchSelect(pgURL, c, b.o.duration)
		if err != nil {
			return err
		}
		b.pgCeiling[c] = tps
		log.Printf("bench: ceilings at %d connections: Fiber %.0f req/s, pgbench -S %.0f tps", c, r.RPS, tps)
	}
	return nil
}

// scenario is one measured endpoint.
type scenario struct {
	name   string
	path   string
	script string
	ids    []string
	env    []string
	// once, if set, drives the scenario instead of wrk: its items are
	// single-use, so it sends each item once, the warm-up's included
	// (onceRun), and calls startCPU when the warm-up ends.
	once func(name string, conns int) (Result, error)
	// setup, if set, prepares the store before the scenario (warm-up
	// included) and returns what undoes it after.
	setup func() (func(), error)
	// workerPaused runs the scenario with the worker stopped (SIGSTOP),
	// warm-up included, and lets it drain what was queued afterwards, as
	// a note: for the scenarios whose target is that the request does not
	// wait for the worker's part. On two shared cores a running worker
	// takes the api's CPU, which measures the machine, not the request.
	workerPaused bool
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9]+`)

// writeLines writes a scenario's data file, one item a line.
func (b *bench) writeLines(name string, lines []string) (string, error) {
	path := filepath.Join(b.work, unsafeName.ReplaceAllString(name, "_")+".txt")
	return path, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

func (b *bench) measure(s scenario, conns int) (Result, error) {
	b.waitQuiet()
	b.compactCounters(context.Background())
	b.vacuumDue(context.Background())
	if s.setup != nil {
		undo, err := s.setup()
		if err != nil {
			return Result{}, err
		}
		defer undo()
	}
	if s.workerPaused {
		if err := b.worker.pause(); err != nil {
			return Result{}, err
		}
	}
	r, err := b.drive(s, conns)
	if s.workerPaused {
		b.worker.resume()
		b.measureDrain(fmt.Sprintf("%s (c=%d, worker paused)", s.name, conns))
	}
	if err != nil {
		return r, err
	}
	log.Printf("bench: %-40s c=%-3d %8.0f req/s  p50 %-9s p99 %-9s CPU/request %s non-2xx %d errors %d",
		s.name, conns, r.RPS, r.P50, r.P99, fmtCPU(r.CPU), r.Non2xx, r.Errors)
	if r.Requests > 0 && r.Non2xx*100 > r.Requests {
		return r, fmt.Errorf("%s: %d of %d answers did not do the work (not 2xx, or a repeat's 200); see %s/api.log", s.name, r.Non2xx, r.Requests, b.work)
	}
	b.results = append(b.results, r)
	return r, nil
}

// drive runs s at conns: its own driver, or wrk after a warm-up. The CPU
// of the measured run (not the warm-up's) is in the result.
func (b *bench) drive(s scenario, conns int) (Result, error) {
	if s.once != nil {
		b.startCPU() // again by the driver when its warm-up ends
		r, err := s.once(s.name, conns)
		r.CPU = b.cpuNow().since(b.cpuStart, r.Requests)
		return r, err
	}
	env := append(os.Environ(), "LUA_DIR="+b.luaDir, "TOKEN="+b.token)
	if s.ids != nil {
		path, err := b.writeLines(s.name, s.ids)
		if err != nil {
			return Result{}, err
		}
		env = append(env, "IDS_FILE="+path)
	}
	env = append(env, s.env...)
	script := ""
	if s.script != "" {
		script = filepath.Join(b.luaDir, s.script)
	}
	if b.o.warmup > 0 {
		wrkRun("warmup", b.apiURL+s.path, script, conns, b.o.warmup, env)
	}
	start := b.cpuNow()
	r, err := wrkRun(s.name, b.apiURL+s.path, script, conns, b.o.duration, env)
	r.CPU = b.cpuNow().since(start, r.Requests)
	return r, err
}

// cpuShare is CPU time per request answered, by process.
type cpuShare struct{ api, postgres, worker time.Duration }

func (c cpuShare) total() time.Duration { return c.api + c.postgres + c.worker }

// startCPU marks where a measured run's CPU count starts (cpuStart).
func (b *bench) startCPU() { b.cpuStart = b.cpuNow() }

// cpuNow is the CPU the api, Postgres and the worker have used so far.
func (b *bench) cpuNow() cpuShare {
	return cpuShare{api: b.api.cpu(), postgres: postgresCPU(), worker: b.worker.cpu()}
}

// since is the CPU used after start, per one of n requests.
func (c cpuShare) since(start cpuShare, n int) cpuShare {
	if n <= 0 {
		return cpuShare{}
	}
	per := func(now, then time.Duration) time.Duration { return (now - then) / time.Duration(n) }
	return cpuShare{api: per(c.api, start.api), postgres: per(c.postgres, start.postgres), worker: per(c.worker, start.worker)}
}

func (b *bench) wanted(name string) bool {
	if b.o.only == "" {
		return true
	}
	for _, w := range strings.Split(b.o.only, ",") {
		if strings.Contains(name, strings.TrimSpace(w)) {
			return true
		}
	}
	return false
}

func machine() string {
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "model name") {
				cpu = strings.TrimSpace(strings.SplitN(l, ":", 2)[1])
				break
			}
		}
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int
		fmt.Sscanf(strings.SplitN(string(b), "\n", 2)[0], "MemTotal: %d kB", &kb)
		mem = fmt.Sprintf(", %.0f GiB RAM", float64(kb)/1024/1024)
	}
	return fmt.Sprintf("%d × %s%s, %s/%s, %s", runtime.NumCPU(), cpu, mem, runtime.GOOS, runtime.GOARCH, runtime.Version())
}
