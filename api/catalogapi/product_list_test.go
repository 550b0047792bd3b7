package catalogapi_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/uuid"
)

type productList struct {
	Data []struct {
		ID     string  `json:"id"`
		Title  string  `json:"title"`
		Price  float64 `json:"price"`
		Status string  `json:"status"`
	} `json:"data"`
	Pagination struct {
		Page, Limit, Total, TotalPages int
	} `json:"pagination"`
}

func (e *env) list(t *testing.T, query string) productList {
	t.Helper()
	var l productList
	e.do(t, http.MethodGet, "/products?"+query, nil).Expect(t, http.StatusOK).JSON(t, &l)
	return l
}

func titles(l productList) []string {
	out := make([]string, len(l.Data))
	for i, p := range l.Data {
		out[i] = p.Title
	}
	return out
}

func TestListProducts(t *testing.T) {
	e := newEnv(t)
	shoes := e.category(t, nil)
	e.product(t, map[string]any{"title": "Crème Brûlée Mug", "description": "Ceramic", "status": "active"})
	e.product(t, map[string]any{"title": "Runner", "description": "Light CAFÉ-racer shoe", "categoryId": shoes["id"], "status": "active"})
	e.product(t, map[string]any{"title": "Loafer", "description": "Leather", "categoryId": shoes["id"]})
	e.product(t, map[string]any{"title": "100% Cotton Tee", "description": "Plain"})
	e.product(t, map[string]any{"title": "Tee_2", "description": "Underscore"})

	all := e.list(t, "")
	if all.Pagination.Total != 5 || all.Pagination.Page != 1 || all.Pagination.Limit != 20 || all.Pagination.TotalPages != 1 {
		t.Fatalf("pagination %+v", all.Pagination)
	}
	if got := titles(all); got[0] != "Tee_2" || got[4] != "Crème Brûlée Mug" {
		t.Fatalf("want newest first, got %v", got)
	}

	tests := []struct {
		name, query string
		want        []string
	}{
		{"status", "status=active", []string{"Runner", "Crème Brûlée Mug"}},
		{"category", "categoryId=" + shoes["id"].(string), []string{"Loafer", "Runner"}},
		{"category and status", "status=draft&categoryId=" + shoes["id"].(string), []string{"Loafer"}},
		{"search ignores accents in the data", "search=creme", []string{"Crème Brûlée Mug"}},
		{"search ignores accents and case in the term", "search=CAFÉ", []string{"Runner"}},
		{"search matches the description", "search=leather", []string{"Loafer"}},
		{"search treats % literally", "search=" + url.QueryEscape("100%"), []string{"100% Cotton Tee"}},
		{"search treats _ literally", "search=" + url.QueryEscape("e_"), []string{"Tee_2"}},
		{"search with no match", "search=zzz", []string{}},
		{"unknown category", "categoryId=" + uuid.NewString(), []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := e.list(t, tt.query)
			got := titles(l)
			if len(got) != len(tt.want) || l.Pagination.Total != len(tt.want) {
				t.Fatalf("got %v (total %d), want %v", got, l.Pagination.Total, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
			}
		})
	}

	t.Run("pages", func(t *testing.T) {
		p1, p2, p3 := e.list(t, "limit=2"), e.list(t, "limit=2&page=2"), e.list(t, "limit=2&page=3")
		if len(p1.Data) != 2 || len(p2.Data) != 2 || len(p3.Data) != 1 || p1.Pagination.Total != 5 || p2.Pagination.Total != 5 ||
			p3.Pagination.Total != 5 || p1.Pagination.TotalPages != 3 {
			t.Fatalf("pages %+v %+v %+v", p1.Pagination, p2.Pagination, p3.Pagination)
		}
		if p1.Data[1].ID == p2.Data[0].ID {
			t.Fatal("pages overlap")
		}
		if past := e.list(t, "limit=2&page=9"); len(past.Data) != 0 || past.Pagination.Total != 5 {
			t.Fatalf("past the end: %+v", past.Pagination)
		}
	})
	t.Run("bad query parameters", func(t *testing.T) {
		for q, field := range map[string]string{"limit=101": "limit", "limit=0": "limit", "page=x": "page",
			"status=gone": "status", "categoryId=x": "categoryId"} {
			e.invalid(t, http.MethodGet, "/products?"+q, nil).ExpectField(t, field)
		}
	})
}
