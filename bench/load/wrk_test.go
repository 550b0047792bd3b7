package main

import (
	"testing"
	"time"
)

const sampleWrk = `Running 10s test @ http://127.0.0.1:8080/healthz
  2 threads and 16 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   210.05us  300.12us  12.31ms   95.12%
    Req/Sec    40.12k     2.01k   45.00k    70.00%
  Latency Distribution
     50%  180.00us
     75%  220.00us
     90%  300.00us
     99%    1.20ms
  801234 requests in 10.00s, 100.00MB read
  Socket errors: connect 0, read 1, write 0, timeout 2
  Non-2xx or 3xx responses: 5
Requests/sec:  80123.40
Transfer/sec:     10.00MB
`

// The rate is the 2xx answers over the run's own length, not wrk's
// Requests/sec (every answer).
func TestParseWrk(t *testing.T) {
	r := parseWrk(sampleWrk)
	if r.RPS != 80122.9 || r.Requests != 801234 || r.Non2xx != 5 || r.Errors != 3 || r.Runtime != 10*time.Second {
		t.Fatalf("%+v", r)
	}
	if r.P50 != 180*time.Microsecond || r.P99 != 1200*time.Microsecond {
		t.Fatalf("p50 %s p99 %s", r.P50, r.P99)
	}
}
