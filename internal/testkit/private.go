package testkit

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// FreePort returns a TCP port free on 127.0.0.1 at the time of the call.
func FreePort(tb testing.TB) int {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("testkit: free port: %v", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// PrivateRedis is a redis-server of the test's own, on its own port and
// directory, that the test may stop and start again.
type PrivateRedis struct {
	Port int
	URL  string
	dir  string
	cmd  *exec.Cmd
	tb   testing.TB
}

// StartRedis starts a private redis-server; it is killed when tb ends.
func StartRedis(tb testing.TB) *PrivateRedis {
	tb.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		tb.Skip("redis-server not installed")
	}
	r := &PrivateRedis{Port: FreePort(tb), dir: tb.TempDir(), tb: tb}
	r.URL = fmt.Sprintf("redis://127.0.0.1:%d/0", r.Port)
	r.Start()
	tb.Cleanup(r.Stop)
	return r
}

// Start runs the server and waits until it answers.
func (r *PrivateRedis) Start() {
	r.tb.Helper()
	r.cmd = exec.Command("redis-server", "--port", strconv.Itoa(r.Port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", r.dir)
	if err := r.cmd.Start(); err != nil {
		r.tb.Fatalf("testkit: redis-server: %v", err)
	}
	c := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", r.Port)})
	defer c.Close()
	Eventually(r.tb, 10*time.Second, "private redis to answer", func() bool {
		return c.Ping(context.Background()).Err() == nil
	})
}

// Stop kills the server (its data is gone: it keeps nothing on disk).
func (r *PrivateRedis) Stop() {
	if r.cmd != nil && r.cmd.Process != nil {
		r.cmd.Process.Kill()
		r.cmd.Wait()
		r.cmd = nil
	}
}

// PrivatePostgres is a Postgres cluster of the test's own, initialised in a
// temporary directory from the installed binaries.
type PrivatePostgres struct {
	Port int
	// URL points at its "postgres" database.
	URL  string
	dir  string
	bin  string
	tb   testing.TB
	live bool
}

// StartPostgres initialises and starts a private cluster; it is stopped and
// removed when tb ends.
func StartPostgres(tb testing.TB) *PrivatePostgres {
	tb.Helper()
	bin := postgresBin()
	if bin == "" {
		tb.Skip("postgres binaries not found")
	}
	// Not tb.TempDir(): its parent is private to root, and the server runs as
	// the postgres user when tests run as root.
	dir, err := os.MkdirTemp("", "shop-pg-")
	if err != nil {
		tb.Fatalf("testkit: temp dir: %v", err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	p := &PrivatePostgres{Port: FreePort(tb), dir: dir, bin: bin, tb: tb}
	p.URL = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", p.Port)
	data := filepath.Join(p.dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8")
	p.asPostgresUser(initdb)
	if out, err := initdb.CombinedOutput(); err != nil {
		tb.Fatalf("testkit: initdb: %v\n%s", err, out)
	}
	p.Start()
	tb.Cleanup(p.Stop)
	return p
}

// Start starts the cluster and waits for it.
func (p *PrivatePostgres) Start() {
	p.tb.Helper()
	cmd := exec.Command(filepath.Join(p.bin, "pg_ctl"), "-D", filepath.Join(p.dir, "data"), "-w", "-l", filepath.Join(p.dir, "log"),
		"-o", fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200", p.Port, p.dir), "start")
	p.asPostgresUser(cmd)
	if out, err := cmd.CombinedOutput(); err != nil {
		p.tb.Fatalf("testkit: pg_ctl start: %v\n%s", err, out)
	}
	p.live = true
}

// Stop stops the cluster immediately.
func (p *PrivatePostgres) Stop() {
	if !p.live {
		return
	}
	cmd := exec.Command(filepath.Join(p.bin, "pg_ctl"), "-D", filepath.Join(p.dir, "data"), "-m", "immediate", "stop")
	p.asPostgresUser(cmd)
	cmd.Run()
	p.live = false
}

// asPostgresUser runs cmd as the postgres OS user when the tests run as
// root, since Postgres refuses to run as root.
func (p *PrivatePostgres) asPostgresUser(cmd *exec.Cmd) {
	if os.Geteuid() != 0 {
		return
	}
	os.Chmod(p.dir, 0o777)
	args := append([]string{"-u", "postgres", "--"}, cmd.Args...)
	*cmd = *exec.Command("runuser", args...)
	cmd.Dir = "/"
}

func postgresBin() string {
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		dir := strings.TrimSpace(string(out))
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err == nil {
			return dir
		}
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	if len(matches) > 0 {
		return matches[len(matches)-1]
	}
	return ""
}

// StartReplica makes a streaming replica of p with pg_basebackup (from the
// installed binaries) in a directory and on a port of its own, and starts
// it; it is stopped and removed when tb ends. Its URL points at its
// "postgres" database, like p's.
func (p *PrivatePostgres) StartReplica(tb testing.TB) *PrivatePostgres {
	tb.Helper()
	dir, err := os.MkdirTemp("", "shop-pg-replica-")
	if err != nil {
		tb.Fatalf("testkit: temp dir: %v", err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	r := &PrivatePostgres{Port: FreePort(tb), dir: dir, bin: p.bin, tb: tb}
	r.URL = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", r.Port)
	// -R writes standby.signal and primary_conninfo: the copy starts as a
	// hot standby streaming from p. A fast checkpoint: the default spread one
	// makes pg_basebackup wait about two minutes for it.
	backup := exec.Command(filepath.Join(p.bin, "pg_basebackup"), "-h", "127.0.0.1", "-p", strconv.Itoa(p.Port),
		"-U", "postgres", "-D", filepath.Join(dir, "data"), "-R", "-X", "stream", "--no-sync", "--checkpoint=fast")
	r.asPostgresUser(backup)
	if out, err := backup.CombinedOutput(); err != nil {
		tb.Fatalf("testkit: pg_basebackup: %v\n%s", err, out)
	}
	r.Start()
	tb.Cleanup(r.Stop)
	return r
}
