// Package openapiclient_test proves that docs/openapi.yaml produces a
// working client: it generates one with oapi-codegen, builds it in a
// temporary module, and drives the service with it.
package openapiclient_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gocommerce/shop/docs"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/oapi-codegen/oapi-codegen/v2/pkg/codegen"
)

// TestGeneratedClientJourney generates a Go client from the document
// (oapi-codegen, pinned in go.mod), builds it with the program in
// testdata/journey in a temporary module of its own (go.mod and go.sum
// there pin the client's runtime; `make test` downloads them first, so no
// network is needed), and runs the guest journey and the admin order
// lookup against an in-process service. The program talks through a proxy
// that checks every exchange against the document as the other HTTP tests
// do. A document that cannot produce a client that compiles and works fails
// here.
func TestGeneratedClientJourney(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the generated client: %v", err)
	}
	start := time.Now()
	spec, err := openapi3.NewLoader().LoadFromData(docs.OpenAPI)
	if err != nil {
		t.Fatalf("docs/openapi.yaml does not load: %v", err)
	}
	code, err := codegen.Generate(spec, codegen.Configuration{PackageName: "main",
		Generate: codegen.GenerateOptions{Client: true, Models: true}})
	if err != nil {
		t.Fatalf("oapi-codegen cannot generate a client from docs/openapi.yaml: %v", err)
	}
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum", "main.go"} {
		copyFile(t, filepath.Join("testdata", "journey", name), filepath.Join(dir, name))
	}
	if err := os.WriteFile(filepath.Join(dir, "client.gen.go"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	generated := time.Since(start)

	// -mod=mod lets a new import of a future generator version resolve
	// (with the network); the pinned ones come from the module cache.
	build := exec.Command(goBin, "build", "-o", filepath.Join(dir, "journey"), ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the client generated from docs/openapi.yaml does not build: %v\n%s", err, out)
	}
	built := time.Since(start) - generated

	app := testkit.MustApp(t, testkit.WithWorker())
	adm, _ := testkit.MustAdmin(t, app, string(rbac.Admin))
	target, err := url.Parse(app.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.SetURL(target) },
		Transport: testkit.ContractTransport{},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			t.Errorf("%s %s: %v", r.Method, r.URL.Path, err)
			w.WriteHeader(http.StatusBadGateway)
		},
	})
	defer proxy.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	run := exec.CommandContext(ctx, filepath.Join(dir, "journey"))
	run.Env = append(os.Environ(), "SHOP_URL="+proxy.URL, "SHOP_ADMIN_EMAIL="+adm.Email,
		"SHOP_ADMIN_PASSWORD="+testkit.AdminPassword, "SHOP_WEBHOOK_SECRET="+app.Config.GatewayWebhookSecret)
	out, err := run.CombinedOutput()
	t.Logf("journey output:\n%s", out)
	if err != nil {
		t.Fatalf("the journey with the generated client failed: %v", err)
	}
	t.Logf("generate %s, build %s, journey %s", generated.Round(time.Millisecond), built.Round(time.Millisecond),
		(time.Since(start) - generated - built).Round(time.Millisecond))
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
