package api_test

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gocommerce/shop/api/console"
	"github.com/gocommerce/shop/internal/testkit"
	"gopkg.in/yaml.v3"
)

// TestOpenAPIMatchesRoutes fails when a registered route is missing from
// docs/openapi.yaml, or the document names a route that does not exist.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	raw, err := os.ReadFile("../docs/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]any `yaml:"paths"`
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("docs/openapi.yaml: %v", err)
	}
	documented := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			switch method {
			case "get", "post", "put", "patch", "delete":
				documented[strings.ToUpper(method)+" "+path] = true
			}
		}
	}

	app := testkit.MustApp(t)
	registered := map[string]bool{}
	for _, r := range app.Server.App.GetRoutes(true) {
		if r.Method == "HEAD" || r.Method == "CONNECT" || r.Method == "OPTIONS" || r.Method == "TRACE" {
			continue
		}
		// The admin console's pages and files are a web app, not API
		// (docs/DECISIONS.md, "Admin console").
		if r.Path == console.Path || strings.HasPrefix(r.Path, console.Path+"/") {
			continue
		}
		registered[r.Method+" "+openAPIPath(r.Path)] = true
	}

	var missing, stale []string
	for k := range registered {
		if !documented[k] {
			missing = append(missing, k)
		}
	}
	for k := range documented {
		if !registered[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	if len(missing) > 0 {
		t.Errorf("routes missing from docs/openapi.yaml:\n  %s", strings.Join(missing, "\n  "))
	}
	if len(stale) > 0 {
		t.Errorf("docs/openapi.yaml names routes that do not exist:\n  %s", strings.Join(stale, "\n  "))
	}
}

var fiberParam = regexp.MustCompile(`:([A-Za-z0-9_]+)`)

// openAPIPath turns /products/:productId into /products/{productId} and a
// trailing wildcard into {path}.
func openAPIPath(p string) string {
	p = fiberParam.ReplaceAllString(p, "{$1}")
	return strings.ReplaceAll(p, "*", "{path}")
}
