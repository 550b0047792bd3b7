package testkit

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The contract catches each kind of drift between an exchange and
// docs/openapi.yaml, and lets a deliberately wrong request through.
func TestContractTransport(t *testing.T) {
	const envelope = `{"error":{"code":"VALIDATION_ERROR","message":"bad","details":{},"requestId":"r","timestamp":"2026-01-31T18:30:00Z"}}`
	tests := []struct {
		name, method, path string
		invalid            bool
		status             int
		contentType, body  string
		want               string // a problem the contract must report; "" for none
	}{
		{"matching", "GET", "/healthz", false, 200, "application/json", `{"status":"ok"}`, ""},
		{"undeclared member", "GET", "/healthz", false, 200, "application/json", `{"status":"ok","uptime":3}`, "$.uptime: not declared"},
		{"value outside the enum", "GET", "/healthz", false, 200, "application/json", `{"status":"fine"}`, "$.status: value is not one of the allowed values"},
		{"missing required member", "GET", "/readyz", false, 200, "application/json", `{"status":"ready"}`, `property "checks" is missing`},
		{"undocumented status", "GET", "/healthz", false, 418, "application/json", envelope, "status 418 is not documented"},
		{"undocumented content type", "GET", "/healthz", false, 200, "text/plain", "ok", `Content-Type "text/plain" is not documented`},
		{"5xx falls to default", "GET", "/healthz", false, 500, "application/json", envelope, ""},
		{"undocumented route", "GET", "/nope", false, 404, "application/json", envelope, "is not a documented route"},
		{"undocumented route marked invalid", "GET", "/nope", true, 404, "application/json", envelope, ""},
		{"unknown route answered without the envelope", "GET", "/nope", true, 404, "application/json", `{"error":"nope"}`, "$.error: value must be an object"},
		{"bad query parameter", "GET", "/api/v1/admin/orders?limit=1000", false, 400, "application/json", envelope, `query parameter "limit"`},
		{"bad query parameter marked invalid", "GET", "/api/v1/admin/orders?limit=1000", true, 400, "application/json", envelope, ""},
		{"undeclared query parameter", "GET", "/healthz?verbose=1", false, 200, "application/json", `{"status":"ok"}`, `query parameter "verbose" is not declared`},
		{"body sent to an operation without one", "GET", "/healthz", false, 200, "application/json", `{"status":"ok"}`, "takes no request body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get(InvalidRequestHeader) != "" {
					t.Errorf("the %s header reached the service", InvalidRequestHeader)
				}
				w.Header().Set("Content-Type", tt.contentType)
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			var body *strings.Reader
			if tt.name == "body sent to an operation without one" {
				body = strings.NewReader(`{}`)
			} else {
				body = strings.NewReader("")
			}
			req, err := http.NewRequest(tt.method, srv.URL+tt.path, body)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer x")
			if tt.invalid {
				req.Header.Set(InvalidRequestHeader, "1")
			}
			resp, err := (&http.Client{Transport: ContractTransport{}}).Do(req)
			var ce *ContractError
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected problem: %v", err)
			case tt.want == "":
				resp.Body.Close()
			case !errors.As(err, &ce):
				t.Fatalf("got %v, want a contract error mentioning %q", err, tt.want)
			case !strings.Contains(ce.Error(), tt.want):
				t.Fatalf("contract error %q does not mention %q", ce.Error(), tt.want)
			}
		})
	}
}

// Go's server sends no body with a 204, so this case is fed to the check
// directly: a status documented without content must come without a body.
func TestContractRefusesBodyWhereNoneIsDocumented(t *testing.T) {
	c, err := loadContract()
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("DELETE", "/api/v1/admin/products/0b6c1f9e-8f2a-4d55-9c1e-3a7b2d4e5f60", nil)
	route, params, err := c.find(req)
	if err != nil {
		t.Fatal(err)
	}
	resp := &http.Response{StatusCode: 204, Header: http.Header{"Content-Type": {"text/plain"}}}
	problems := c.checkResponse(req, route, params, resp, []byte("x"))
	if len(problems) != 1 || !strings.Contains(problems[0], "documented without a body") {
		t.Fatalf("problems %q", problems)
	}
}
