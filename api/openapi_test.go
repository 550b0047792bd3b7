package api_test

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/console"
	"github.com/gocommerce/shop/docs"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"gopkg.in/yaml.v3"
)

// document is the part of docs/openapi.yaml the drift checks read.
type document struct {
	Paths map[string]map[string]operation `yaml:"paths"`
}

type operation struct {
	OperationID string                 `yaml:"operationId"`
	Security    *[]map[string][]string `yaml:"security"`
	MinRole     string                 `yaml:"x-min-role"`
	RateBucket  string                 `yaml:"x-rate-bucket"`
	Responses   map[string]any         `yaml:"responses"`
}

var methods = []string{"get", "post", "put", "patch", "delete"}

func loadDocument(t *testing.T) document {
	t.Helper()
	if dups := duplicateKeys(t, docs.OpenAPI); len(dups) > 0 {
		t.Fatalf("docs/openapi.yaml repeats mapping keys (tools refuse it):\n  %s", strings.Join(dups, "\n  "))
	}
	var raw struct {
		Paths map[string]map[string]yaml.Node `yaml:"paths"`
	}
	if err := yaml.Unmarshal(docs.OpenAPI, &raw); err != nil {
		t.Fatalf("docs/openapi.yaml: %v", err)
	}
	doc := document{Paths: map[string]map[string]operation{}}
	for path, item := range raw.Paths {
		doc.Paths[path] = map[string]operation{}
		for key, node := range item {
			if !slices.Contains(methods, key) {
				continue // parameters, summary
			}
			var op operation
			if err := node.Decode(&op); err != nil {
				t.Fatalf("docs/openapi.yaml %s %s: %v", key, path, err)
			}
			doc.Paths[path][key] = op
		}
	}
	return doc
}

// duplicateKeys lists every mapping key that appears twice in the same
// mapping of the YAML text, with its line. yaml.v3 refuses duplicates only
// when decoding into Go values, and only in the parts decoded.
func duplicateKeys(t *testing.T, text []byte) []string {
	t.Helper()
	var root yaml.Node
	if err := yaml.Unmarshal(text, &root); err != nil {
		t.Fatalf("parse: %v", err)
	}
	var out []string
	var walk func(n *yaml.Node, at string)
	walk = func(n *yaml.Node, at string) {
		if n.Kind == yaml.MappingNode {
			seen := map[string]int{}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if first, ok := seen[k.Value]; ok {
					out = append(out, fmt.Sprintf("%s/%s at line %d (first at line %d)", at, k.Value, k.Line, first))
				} else {
					seen[k.Value] = k.Line
				}
				walk(n.Content[i+1], at+"/"+k.Value)
			}
			return
		}
		for _, c := range n.Content {
			walk(c, at)
		}
	}
	walk(&root, "")
	return out
}

func TestDuplicateKeysAreFound(t *testing.T) {
	dups := duplicateKeys(t, []byte("a:\n  b: 1\n  c: 2\n  b: 3\nd: {e: 1, e: 2}\n"))
	want := []string{"/a/b at line 4 (first at line 2)", "/d/e at line 5 (first at line 5)"}
	if !slices.Equal(dups, want) {
		t.Fatalf("duplicates %q, want %q", dups, want)
	}
}

// TestOpenAPIMatchesRoutes fails when a registered route is missing from
// docs/openapi.yaml, the document names a route that does not exist, or the
// document repeats a key.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	doc := loadDocument(t)
	documented := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			documented[strings.ToUpper(method)+" "+path] = true
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
	missing, stale := routeDrift(documented, registered)
	if len(missing) > 0 {
		t.Errorf("routes missing from docs/openapi.yaml:\n  %s", strings.Join(missing, "\n  "))
	}
	if len(stale) > 0 {
		t.Errorf("docs/openapi.yaml names routes that do not exist:\n  %s", strings.Join(stale, "\n  "))
	}
}

// routeDrift returns the registered routes the document lacks and the
// documented routes nobody registered, sorted.
func routeDrift(documented, registered map[string]bool) (missing, stale []string) {
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
	return missing, stale
}

func TestRouteDriftIsFound(t *testing.T) {
	missing, stale := routeDrift(
		map[string]bool{"GET /a": true, "POST /gone": true},
		map[string]bool{"GET /a": true, "DELETE /new/{id}": true})
	if !slices.Equal(missing, []string{"DELETE /new/{id}"}) || !slices.Equal(stale, []string{"POST /gone"}) {
		t.Fatalf("missing %q, stale %q", missing, stale)
	}
}

// TestOpenAPIDeclaresAdminAccess holds every admin operation's security,
// x-min-role, x-rate-bucket and its 401/403/429 answers to what the route
// declares where it is registered (api/adminroute), and every operation to
// an operationId, a security declaration and a default answer.
func TestOpenAPIDeclaresAdminAccess(t *testing.T) {
	doc := loadDocument(t)
	app := testkit.MustApp(t)
	ids := map[string]string{}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			at := strings.ToUpper(method) + " " + path
			if op.OperationID == "" {
				t.Errorf("%s has no operationId", at)
			} else if prev, ok := ids[op.OperationID]; ok {
				t.Errorf("%s and %s share operationId %s", at, prev, op.OperationID)
			}
			ids[op.OperationID] = at
			if op.Security == nil {
				t.Errorf("%s declares no security (public operations say security: [])", at)
			}
			if _, ok := op.Responses["default"]; !ok {
				t.Errorf("%s has no default response (the 5xx envelope)", at)
			}
		}
	}
	adminSecurity := []map[string][]string{{"adminBearer": {}}, {"adminCookie": {}}}
	for _, r := range app.Server.Admin.Routes() {
		path := openAPIPath(r.Path)
		op, ok := doc.Paths[path][strings.ToLower(r.Method)]
		if !ok {
			continue // TestOpenAPIMatchesRoutes reports it
		}
		at := r.Method + " " + path
		if r.Public {
			if op.MinRole != "" || op.RateBucket != "" || slices.EqualFunc(deref(op.Security), adminSecurity, sameRequirement) {
				t.Errorf("%s is public but documented as needing an admin token", at)
			}
			continue
		}
		if !slices.EqualFunc(deref(op.Security), adminSecurity, sameRequirement) {
			t.Errorf("%s: security %v, want adminBearer or adminCookie", at, deref(op.Security))
		}
		if op.MinRole != string(r.Permission.MinRole) {
			t.Errorf("%s: x-min-role %q, the route needs %q", at, op.MinRole, r.Permission.MinRole)
		}
		if op.RateBucket != string(r.Bucket) {
			t.Errorf("%s: x-rate-bucket %q, the route uses %q", at, op.RateBucket, r.Bucket)
		}
		want := map[string]bool{"401": true, "403": r.Permission.MinRole != rbac.Viewer, "429": r.Bucket != adminroute.Unlimited}
		for code, should := range want {
			if _, has := op.Responses[code]; has != should {
				t.Errorf("%s: documents %s: %v, want %v", at, code, has, should)
			}
		}
	}
}

func deref(s *[]map[string][]string) []map[string][]string {
	if s == nil {
		return nil
	}
	return *s
}

func sameRequirement(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}

var fiberParam = regexp.MustCompile(`:([A-Za-z0-9_]+)`)

// openAPIPath turns /products/:productId into /products/{productId} and a
// trailing wildcard into {path}.
func openAPIPath(p string) string {
	p = fiberParam.ReplaceAllString(p, "{$1}")
	return strings.ReplaceAll(p, "*", "{path}")
}
