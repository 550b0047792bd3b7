package main

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"time"
)

// consoleScenarios are what the admin console's main pages ask of the
// server over the 100k-order database: its page and script (embedded
// files), the orders page's filters, the order page's detail, and the
// dashboard's second call (the first, GET /admin/analytics/orders, is
// measured already).
func (b *bench) consoleScenarios() ([]scenario, error) {
	script, err := b.consoleScript()
	if err != nil {
		return nil, fmt.Errorf("console page: %w", err)
	}
	var orderIDs []string
	if err := b.db.Raw(`SELECT id::text FROM orders ORDER BY id LIMIT 2000`).Scan(&orderIDs).Error; err != nil {
		return nil, err
	}
	details := make([]string, len(orderIDs))
	for i, id := range orderIDs {
		details[i] = "/api/v1/admin/orders/" + id
	}
	var numbers []string
	if err := b.db.Raw(`SELECT order_number FROM orders ORDER BY id LIMIT 2000`).Scan(&numbers).Error; err != nil {
		return nil, err
	}
	filtered := make([]string, 0, len(numbers)+10)
	for _, n := range numbers {
		filtered = append(filtered, "/api/v1/admin/orders?page=1&limit=20&orderNumber="+n)
	}
	today := time.Now().UTC()
	for d := 0; d < 10; d++ {
		from, to := today.AddDate(0, 0, -7*(d+1)).Format(time.DateOnly), today.AddDate(0, 0, -7*d).Format(time.DateOnly)
		filtered = append(filtered, fmt.Sprintf("/api/v1/admin/orders?page=1&limit=20&status=shipped&dateFrom=%s&dateTo=%s", from, to))
	}
	day := func(offset int) string { return today.AddDate(0, 0, offset).Format(time.DateOnly) }
	return []scenario{
		{name: "GET /admin/ (console page)", path: "/admin/"},
		{name: "GET /admin/assets/… (console script)", path: script},
		{name: "GET /admin/orders (console filters)", path: "/", script: "admin_get.lua", ids: filtered},
		{name: "GET /admin/orders/{id} (console order page)", path: "/", script: "admin_get.lua", ids: details},
		{name: "GET /admin/analytics/products (console dashboard)", path: "/", script: "admin_get.lua", ids: []string{
			"/api/v1/admin/analytics/products?dateFrom=" + day(-29) + "&dateTo=" + day(0),
			"/api/v1/admin/analytics/products?dateFrom=" + day(-89) + "&dateTo=" + day(0),
		}},
	}, nil
}

var consoleMain = regexp.MustCompile(`/admin/assets/[0-9a-f]+/js/main\.js`)

// consoleScript reads the console's page for the versioned URL of its script.
func (b *bench) consoleScript() (string, error) {
	resp, err := http.Get(b.apiURL + "/admin/")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	page, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("status %d: %v", resp.StatusCode, err)
	}
	path := consoleMain.Find(page)
	if path == nil {
		return "", fmt.Errorf("no script URL in the page")
	}
	return string(path), nil
}
