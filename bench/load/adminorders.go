package main

import (
	"encoding/json"
	"fmt"
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
