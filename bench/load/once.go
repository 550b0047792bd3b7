package main

import (
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// onceRun is a load of single-use items (carts to check out, events to
// pay): each item is sent exactly once, never replayed, since a repeat would
// be answered 2xx without doing the work again.
type onceRun struct {
	name  string
	conns int
	items int
	// until stops taking items after this long (0: send every item). A run
	// with a limit that uses up its items first fails: it was too small to
	// measure, and it will not reuse one.
	until time.Duration
	// warmup, when set, sends items for this long first, over the same
	// connections, and counts none of their answers; measuring is called
	// when it ends (the CPU count starts there).
	warmup    time.Duration
	measuring func()
	request   func(i int) *http.Request
	accepted  func(status int, body []byte) bool // the answer did the work
}

// run sends the items over conns keep-alive connections and waits for every
// answer, after the warm-up when there is one (its items are used up, not
// counted). The rate is the accepted answers over the time from the first
// measured request to the last answer, not over a fixed run length; an
// answer not accepted (a refusal, a duplicate's 200) counts as non-2xx.
// minAnswers is the fewest answers a run whose items ran out may report.
const minAnswers = 1000

func (o onceRun) run() (Result, error) {
	client := &http.Client{
		Transport: &http.Transport{MaxConnsPerHost: o.conns, MaxIdleConnsPerHost: o.conns},
		Timeout:   10 * time.Second,
	}
	defer client.CloseIdleConnections()
	var next atomic.Int64
	if o.warmup > 0 {
		if _, err := o.phase(client, &next, o.warmup); err != nil {
			return Result{}, fmt.Errorf("%s warm-up: %w", o.name, err)
		}
	}
	if o.measuring != nil {
		o.measuring()
	}
	return o.phase(client, &next, o.until)
}

// phase sends items from next on for up to until (0: all of them) and
// returns what their answers measure.
func (o onceRun) phase(client *http.Client, next *atomic.Int64, until time.Duration) (Result, error) {
	var (
		ranOut        atomic.Bool
		mu            sync.Mutex
		latency       []time.Duration
		ok, fail, bad int
		wg            sync.WaitGroup
	)
	start := time.Now()
	for c := 0; c < o.conns; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for until == 0 || time.Since(start) < until {
				i := int(next.Add(1) - 1)
				if i >= o.items {
					ranOut.Store(until > 0)
					return
				}
				sent := time.Now()
				resp, err := client.Do(o.request(i))
				var body []byte
				if err == nil {
					body, err = io.ReadAll(resp.Body)
					resp.Body.Close()
				}
				took := time.Since(sent)
				mu.Lock()
				switch {
				case err != nil:
					bad++
				case o.accepted(resp.StatusCode, body):
					ok++
					latency = append(latency, took)
				default:
					fail++
					latency = append(latency, took)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	sort.Slice(latency, func(i, j int) bool { return latency[i] < latency[j] })
	r := Result{Name: o.name, Connections: o.conns, Requests: ok + fail, Non2xx: fail, Errors: bad, Runtime: elapsed,
		RPS: float64(ok) / elapsed.Seconds()}
	if len(latency) > 0 {
		r.P50 = latency[len(latency)/2]
		r.P99 = latency[min(len(latency)-1, len(latency)*99/100)]
	}
	// Items used up before the run's end still give a rate over the time
	// measured (it never assumed a fixed length): a fast machine finishes a
	// level's open orders before -duration is over. Under a thousand
	// answers are too few to trust.
	if ranOut.Load() && ok+fail < minAnswers {
		return r, fmt.Errorf("%s: all %d items were used within %s; the run stops rather than reuse one: give it more or a shorter -duration", o.name, o.items, elapsed.Round(time.Millisecond))
	}
	return r, nil
}
