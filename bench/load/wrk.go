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

// Result is one wrk run.
type Result struct {
	Name        string
	Connections int
	RPS         float64
	P50, P99    time.Duration
	Requests    int
	Non2xx      int
	Errors      int
}

// wrkRun runs wrk against url with a Lua script (may be "") and parses its
// --latency report. Extra environment reaches the script via os.getenv.
func wrkRun(name, url, script string, conns int, dur time.Duration, env []string) (Result, error) {
	threads := 2
	if conns < threads {
		threads = conns
	}
	args := []string{"-t", strconv.Itoa(threads), "-c", strconv.Itoa(conns), "-d", dur.String(), "--latency", "--timeout", "10s"}
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
	reRPS     = regexp.MustCompile(`Requests/sec:\s+([\d.]+)`)
	reTotal   = regexp.MustCompile(`(\d+) requests in`)
	reNon2xx  = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)`)
	reErrors  = regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
	reLatency = regexp.MustCompile(`^\s+(50|99)%\s+([\d.]+)(us|ms|s)\s*$`)
)

func parseWrk(out string) Result {
	var r Result
	if m := reRPS.FindStringSubmatch(out); m != nil {
		r.RPS, _ = strconv.ParseFloat(m[1], 64)
	}
	if m := reTotal.FindStringSubmatch(out); m != nil {
		r.Requests, _ = strconv.Atoi(m[1])
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
		unit := map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[m[3]]
		d := time.Duration(v * float64(unit))
		if m[1] == "50" {
			r.P50 = d
		} else {
			r.P99 = d
		}
	}
	return r
}
