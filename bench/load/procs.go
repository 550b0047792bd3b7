package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// proc is a child process of the benchmark.
type proc struct {
	name string
	cmd  *exec.Cmd
}

// start runs bin with args and env, logging to logDir/name.log.
func start(name, logDir, bin string, args, env []string) (*proc, error) {
	f, err := os.Create(filepath.Join(logDir, name+".log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	return &proc{name: name, cmd: cmd}, nil
}

// stop sends SIGTERM and waits up to 15 s, then kills.
func (p *proc) stop() {
	if p == nil || p.cmd.Process == nil {
		return
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
}

// pause stops the process (SIGSTOP) until resume.
func (p *proc) pause() error { return p.cmd.Process.Signal(syscall.SIGSTOP) }

// resume continues a paused process (SIGCONT).
func (p *proc) resume() { _ = p.cmd.Process.Signal(syscall.SIGCONT) }

// peakRSSMB is the process's peak resident set size (VmHWM), in MiB.
func (p *proc) peakRSSMB() float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			kb, _ := strconv.Atoi(strings.Fields(line)[1])
			return float64(kb) / 1024
		}
	}
	return 0
}

func waitHTTP(url string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("%s did not answer 200 within %s", url, timeout)
}

func freePort() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startRedis runs a private redis-server for the benchmark.
func startRedis(logDir string) (*proc, string, error) {
	port := freePort()
	p, err := start("redis", logDir, "redis-server", []string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", logDir}, nil)
	if err != nil {
		return nil, "", err
	}
	url := fmt.Sprintf("redis://127.0.0.1:%d/0", port)
	for i := 0; i < 50; i++ {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return p, url, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, "", fmt.Errorf("redis-server did not start")
}

func withTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}
