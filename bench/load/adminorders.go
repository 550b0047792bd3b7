package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// adminOrderScenarios are the GET /admin/orders cases of the list target
// (first page, a status filter, page 500; exact totals) and a cursor walk
// over pages 2..500, whose cursors are collected by walking the list once.
func (b *bench) adminOrderScenarios() ([]scenario, error) {
	var statuses []string
	for _, s := range []string{"confirmed", "processing", "shipped", "delivered", "cancelled"} {
		statuses = append(statuses, "/api/v1/admin/orders?limit=20&status="+s)
	}
	out := []scenario{
		{name: "GET /admin/orders (first page)", path: "/", script: "admin_get.lua", ids: []string{"/api/v1/admin/orders?page=1&limit=20"}},
		{name: "GET /admin/orders (status filter)", path: "/", script: "admin_get.lua", ids: statuses},
		{name: "GET /admin/orders (page 500)", path: "/", script: "admin_get.lua", ids: []string{"/api/v1/admin/orders?page=500&limit=20"}},
		// The COD orders still to collect (one seeded order in 25) and a
		// customer's phone as staff type it (about ten orders a phone),
		// each within 2× the first page's p99: an index, not a scan.
		{name: "GET /admin/orders (COD to collect)", path: "/", script: "admin_get.lua",
			ids: []string{"/api/v1/admin/orders?limit=20&paymentMethod=cod&paymentStatus=pending"}},
		{name: "GET /admin/orders (phone search)", path: "/", script: "admin_get.lua", ids: phoneSearches()},
	}
	walk := scenario{name: "GET /admin/orders (cursor walk)", path: "/", script: "admin_get.lua"}
	if !b.wanted(walk.name) {
		return out, nil
	}
	for path := "/api/v1/admin/orders?limit=20"; len(walk.ids) < 499; {
		next, err := b.nextCursor(path)
		if err != nil {
			return nil, fmt.Errorf("cursor walk: page %d: %w", len(walk.ids)+1, err)
		}
		path = "/api/v1/admin/orders?limit=20&cursor=" + url.QueryEscape(next)
		walk.ids = append(walk.ids, path)
	}
	return append(out, walk), nil
}

// phoneSearches are searches for 50 phones of seeded orders (benchPhone)
// written as staff type them.
func phoneSearches() []string {
	var out []string
	for i := 1; i <= 50; i++ {
		n := benchPhone(i * 17)
		for _, written := range []string{n[:5] + " " + n[5:], "+91 " + n[:5] + " " + n[5:], "0" + n} {
			out = append(out, "/api/v1/admin/orders?limit=20&search="+url.QueryEscape(written))
		}
	}
	return out
}

// adminGet reads path with the bench admin's token and checks for a 200.
func (b *bench) adminGet(path string) error {
	req, _ := http.NewRequest(http.MethodGet, b.apiURL+path, nil)
	req.Header.Set("Authorization", "Bearer "+b.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: status %d", path, resp.StatusCode)
	}
	return nil
}

// nextCursor returns pagination.nextCursor of the list page at path.
func (b *bench) nextCursor(path string) (string, error) {
	req, _ := http.NewRequest(http.MethodGet, b.apiURL+path, nil)
	req.Header.Set("Authorization", "Bearer "+b.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var body struct {
		Pagination struct {
			NextCursor *string `json:"nextCursor"`
		} `json:"pagination"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("status %d: %v", resp.StatusCode, err)
	}
	if body.Pagination.NextCursor == nil {
		return "", fmt.Errorf("no nextCursor")
	}
	return *body.Pagination.NextCursor, nil
}

// fulfil ships every unit of each open order once (POST
// .../fulfillments without items, the customer notified): a single-use
// load over the seeded database, each answer 201 or the run is wrong.
func (b *bench) fulfil(orders []string) func(name string, conns int) (Result, error) {
	return func(name string, conns int) (Result, error) {
		r, err := onceRun{name: name, conns: conns, items: len(orders), until: b.o.duration, warmup: b.o.warmup, measuring: b.startCPU,
			request: func(i int) *http.Request {
				body, _ := json.Marshal(map[string]any{"carrier": "Delhivery", "trackingNumber": fmt.Sprintf("DL%09d", i),
					"trackingUrl": "https://www.delhivery.com/track/package/DL" + orders[i][:8]})
				req, _ := http.NewRequest(http.MethodPost, b.apiURL+"/api/v1/admin/orders/"+orders[i]+"/fulfillments", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+b.token)
				return req
			},
			accepted: func(status int, _ []byte) bool { return status == http.StatusCreated },
		}.run()
		if err == nil && r.Non2xx > 0 {
			err = fmt.Errorf("%s: %d of %d fulfilments refused", name, r.Non2xx, r.Requests)
		}
		return r, err
	}
}
