package httpx

import (
	"strconv"

	"github.com/gocommerce/shop/internal/paging"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gofiber/fiber/v2"
)

// Page is a validated page request (docs/openapi.yaml: `page`, `limit`).
type Page struct {
	Page  int
	Limit int
}

// Offset is the number of rows before the page.
func (p Page) Offset() int { return (p.Page - 1) * p.Limit }

// Window is the rows the page asks a service for.
func (p Page) Window() paging.Window { return paging.Window{Limit: p.Limit, Offset: p.Offset()} }

// Pagination limits.
const (
	DefaultLimit = 20
	MaxLimit     = 100
	// maxPage keeps offsets within what Postgres scans in reasonable time.
	maxPage = 100000
)

// ParsePage reads `page` (default 1) and `limit` (default 20, 1..100). A
// non-integer or out-of-range value is 400 VALIDATION_ERROR.
func ParsePage(c *fiber.Ctx) (Page, error) {
	p := Page{Page: 1, Limit: DefaultLimit}
	if s := c.Query("page"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxPage {
			return p, apperr.Invalid("page", "must be an integer between 1 and 100000")
		}
		p.Page = n
	}
	if s := c.Query("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > MaxLimit {
			return p, apperr.Invalid("limit", "must be an integer between 1 and 100")
		}
		p.Limit = n
	}
	return p, nil
}

// Pagination is the `pagination` object of list responses.
type Pagination struct {
	Page       int   `json:"page"`
	Limit      int   `json:"limit"`
	Total      int64 `json:"total"`
	TotalPages int64 `json:"totalPages"`
}

// ListBody is the body of every list response.
type ListBody[T any] struct {
	Data       []T        `json:"data"`
	Pagination Pagination `json:"pagination"`
}

// NewList builds a list body; data is never null in JSON.
func NewList[T any](data []T, p Page, total int64) ListBody[T] {
	if data == nil {
		data = []T{}
	}
	pages := (total + int64(p.Limit) - 1) / int64(p.Limit)
	return ListBody[T]{Data: data, Pagination: Pagination{Page: p.Page, Limit: p.Limit, Total: total, TotalPages: pages}}
}
