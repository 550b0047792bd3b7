//go:build faults

package faults_test

import (
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Postgres restarted under load: /readyz goes 503 then 200 again without a
// restart of the API, and no request hangs past its timeout.
func TestPostgresRestartUnderLoad(t *testing.T) {
	c := newCluster(t)
	api := c.Start("api", "api")

	client := &http.Client{Timeout: 20 * time.Second}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var slowest atomic.Int64
	var served, failed atomic.Int64
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				start := time.Now()
				// Both reach the database: a catalog read and the readiness ping.
				path := []string{"/products", "/readyz"}[served.Load()%2]
				resp, err := client.Get(api.URL + path)
				d := time.Since(start)
				if d.Nanoseconds() > slowest.Load() {
					slowest.Store(d.Nanoseconds())
				}
				if err != nil {
					failed.Add(1)
					continue
				}
				resp.Body.Close()
				served.Add(1)
			}
		}()
	}

	time.Sleep(500 * time.Millisecond)
	c.PG.Stop()
	sawDown := false
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := client.Get(api.URL + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusServiceUnavailable {
				sawDown = true
				break
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !sawDown {
		t.Fatal("/readyz never reported 503 while Postgres was down")
	}
	time.Sleep(2 * time.Second)
	c.PG.Start()
	deadline = time.Now().Add(30 * time.Second)
	ready := false
	for time.Now().Before(deadline) {
		if resp, err := client.Get(api.URL + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				ready = true
				break
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if !ready {
		t.Fatal("/readyz did not return to 200 after Postgres restarted")
	}
	// The request deadline is 15 s; nothing may hang past it.
	if d := time.Duration(slowest.Load()); d > 16*time.Second {
		t.Fatalf("a request took %s", d)
	}
	if failed.Load() > 0 {
		t.Fatalf("%d requests got no HTTP answer at all", failed.Load())
	}
	t.Logf("served %d requests; slowest %s", served.Load(), time.Duration(slowest.Load()))
}
