package httpx

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type rule struct {
	Price money.Amount `json:"price" validate:"gt=0"`
}

type sample struct {
	Owner *uuid.UUID              `json:"owner"`
	IDs   []uuid.UUID             `json:"ids"`
	Title string                  `json:"title" validate:"required,min=1,max=10"`
	Price money.Amount            `json:"price" validate:"gt=0"`
	Count int                     `json:"count"`
	Rules []rule                  `json:"rules" validate:"dive"`
	Group map[string]money.Amount `json:"group"`
	embedded
}

// embedded's fields are promoted: the body names them at its top level.
type embedded struct {
	Note string `json:"note" validate:"max=3"`
}

func TestBindErrors(t *testing.T) {
	tests := []struct {
		name, body, field string
		issue             string
	}{
		{name: "malformed", body: `{"title":`, field: ""},
		{name: "not an object", body: `[1,2]`, field: ""},
		{name: "trailing data", body: `{"title":"a","price":1} {}`, field: ""},
		{name: "wrong type", body: `{"title":5,"price":1}`, field: "title", issue: "must be a string"},
		{name: "integer expected", body: `{"title":"a","price":1,"count":1.5}`, field: "count", issue: "must be an integer"},
		{name: "money with three decimals", body: `{"title":"a","price":1.005}`, field: "price"},
		{name: "money string", body: `{"title":"a","price":"10"}`, field: "price"},
		{name: "nested money", body: `{"title":"a","price":1,"rules":[{"price":1},{"price":1e5}]}`, field: "rules[1].price"},
		{name: "map money", body: `{"title":"a","price":1,"group":{"g1":0.001}}`, field: "group"},
		{name: "bad uuid", body: `{"title":"a","price":1,"owner":"not-a-uuid"}`, field: "owner"},
		{name: "bad uuid in array", body: `{"title":"a","price":1,"ids":["00000000-0000-4000-8000-000000000000","x"]}`, field: "ids[1]"},
		{name: "required", body: `{"price":1}`, field: "title", issue: "is required"},
		{name: "too long", body: `{"title":"abcdefghijk","price":1}`, field: "title", issue: "must be at most 10 characters"},
		{name: "price zero", body: `{"title":"a","price":0}`, field: "price", issue: "must be greater than 0"},
		{name: "embedded struct's field", body: `{"title":"a","price":1,"note":"abcd"}`, field: "note", issue: "must be at most 3 characters"},
		{name: "nested rule", body: `{"title":"a","price":1,"rules":[{"price":0}]}`, field: "rules[0].price", issue: "must be greater than 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s sample
			err := DecodeJSON([]byte(tt.body), &s)
			if err == nil {
				err = Validate(&s)
			}
			e, ok := apperr.As(err)
			if !ok || e.Code != apperr.Validation {
				t.Fatalf("want VALIDATION_ERROR, got %v", err)
			}
			if got, _ := e.Details["field"].(string); got != tt.field {
				t.Fatalf("field %q, want %q (%v)", got, tt.field, e.Details)
			}
			if tt.issue != "" && e.Details["issue"] != tt.issue {
				t.Fatalf("issue %q, want %q", e.Details["issue"], tt.issue)
			}
		})
	}
}

func TestBindAcceptsValid(t *testing.T) {
	var s sample
	if err := DecodeJSON([]byte(`{"title":"Tee","price":499.5,"unknown":true}`), &s); err != nil {
		t.Fatal(err)
	}
	if err := Validate(&s); err != nil {
		t.Fatal(err)
	}
	if s.Price != 49950 {
		t.Fatalf("price %d", s.Price)
	}
}

func TestParsePage(t *testing.T) {
	app := fiber.New(fiber.Config{ErrorHandler: func(c *fiber.Ctx, err error) error {
		e, _ := apperr.As(err)
		return c.Status(400).SendString(e.Details["field"].(string))
	}})
	app.Get("/", func(c *fiber.Ctx) error {
		p, err := ParsePage(c)
		if err != nil {
			return err
		}
		return c.JSON(p)
	})
	tests := []struct {
		query  string
		status int
		want   string
	}{
		{"", 200, `{"Page":1,"Limit":20}`},
		{"?page=3&limit=100", 200, `{"Page":3,"Limit":100}`},
		{"?limit=101", 400, "limit"},
		{"?limit=0", 400, "limit"},
		{"?page=0", 400, "page"},
		{"?page=1.5", 400, "page"},
		{"?limit=abc", 400, "limit"},
	}
	for _, tt := range tests {
		resp, err := app.Test(httptest.NewRequest("GET", "/"+tt.query, nil))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != tt.status || strings.TrimSpace(string(b)) != tt.want {
			t.Fatalf("%s: %d %s, want %d %s", tt.query, resp.StatusCode, b, tt.status, tt.want)
		}
	}
}

func TestNewListNeverNull(t *testing.T) {
	b, _ := json.Marshal(NewList[int](nil, Page{Page: 1, Limit: 20}, 41))
	if string(b) != `{"data":[],"pagination":{"page":1,"limit":20,"total":41,"totalPages":3}}` {
		t.Fatalf("%s", b)
	}
}
