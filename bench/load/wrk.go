package main

import (
	"bufio"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Result is one measured run.
type Result struct {
	Name        string
	Connections int
	// RPS is the work completed per second: the answers that did the work
	// (2xx; for a one-shot run, the accepted ones) over the time the run
	// took.
	RPS      float64
	P50, P99 time.Duration
	Requests int // answers received
	Non2xx   int
	Errors   int
	Runtime  time.Duration
	// Provider is the payment provider a scenario paid through, if any.
	Provider string
	// CPU is the CPU the api, Postgres and the worker spent during the run
	// (drive), per request answered: a figure a noisy machine moves far
	// less than it moves latencies, so before/after comparisons use it.
	CPU cpuShare
}

// wrkRun runs wrk against url with a Lua script (may be "") and parses its
// --latency report. Extra environment reaches the script via os.getenv.
func wrkRun(name, url, script string, conns int, dur time.Duration, env []string) (Result, error) {
	threads := 2
	if conns < threads {
		threads = conns
	}
	// In seconds: wrk reads "6m" but not Go's "6m0s".
	secs := strconv.Itoa(int(dur.Round(time.Second).Seconds())) + "s"
	args := []string{"-t", strconv.Itoa(threads), "-c", strconv.Itoa(conns), "-d", secs, "--latency", "--timeout", "10s"}
	if script != "" {
		args = append(args, "-s", script)
	}
	args = append(args, url)
	cmd := exec.Command("wrk", args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return Result{}, fmt.Errorf("wrk %s: %v\n%s", name, err, out)
	}
	r := parseWrk(string(out))
	r.Name, r.Connections = name, conns
	return r, nil
}

var (
	reTotal   = regexp.MustCompile(`(\d+) requests in ([\d.]+)(us|ms|s|m|h),`)
	reNon2xx  = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)`)
	reErrors  = regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
	reLatency = regexp.MustCompile(`^\s+(50|99)%\s+([\d.]+)(us|ms|s)\s*$`)
)

// units are wrk's duration suffixes.
var units = map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second, "m": time.Minute, "h": time.Hour}

// parseWrk reads wrk's --latency report. Its Requests/sec counts every
// answer over the run; RPS here counts the 2xx answers only.
func parseWrk(out string) Result {
	var r Result
	if m := reTotal.FindStringSubmatch(out); m != nil {
		r.Requests, _ = strconv.Atoi(m[1])
		v, _ := strconv.ParseFloat(m[2], 64)
		r.Runtime = time.Duration(v * float64(units[m[3]]))
	}
	if m := reNon2xx.FindStringSubmatch(out); m != nil {
		r.Non2xx, _ = strconv.Atoi(m[1])
	}
	if m := reErrors.FindStringSubmatch(out); m != nil {
		for _, s := range m[1:] {
			n, _ := strconv.Atoi(s)
			r.Errors += n
		}
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		m := reLatency.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		v, _ := strconv.ParseFloat(m[2], 64)
		d := time.Duration(v * float64(units[m[3]]))
		if m[1] == "50" {
			r.P50 = d
		} else {
			r.P99 = d
		}
	}
	if r.Runtime > 0 {
		r.RPS = float64(r.Requests-r.Non2xx) / r.Runtime.Seconds()
	}
	return r
}
