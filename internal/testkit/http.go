package testkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// client checks every exchange against docs/openapi.yaml.
var client = &http.Client{Timeout: 30 * time.Second, Transport: ContractTransport{}}

// Response is a finished HTTP exchange.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Req describes a request: headers and a body (a []byte or string is sent
// as is, anything else as JSON).
type Req struct {
	Headers map[string]string
	Body    any
	// Token is sent as Authorization: Bearer.
	Token string
	// Invalid marks a request that deliberately breaks docs/openapi.yaml
	// (a malformed body, a bad parameter, an unknown route): it is sent
	// unchecked; its response is still checked against the document.
	Invalid bool
}

// Do sends method path (relative to a.URL) and returns the response.
func (a *App) Do(tb testing.TB, method, path string, r Req) *Response {
	tb.Helper()
	return Do(tb, method, a.URL+path, r)
}

// Do sends a request to an absolute URL.
func Do(tb testing.TB, method, url string, r Req) *Response {
	tb.Helper()
	var body io.Reader
	switch b := r.Body.(type) {
	case nil:
	case []byte:
		body = bytes.NewReader(b)
	case string:
		body = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			tb.Fatalf("testkit: marshal body: %v", err)
		}
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		tb.Fatalf("testkit: request: %v", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.Token != "" {
		req.Header.Set("Authorization", "Bearer "+r.Token)
	}
	for k, v := range r.Headers {
		req.Header.Set(k, v)
	}
	if r.Invalid {
		req.Header.Set(InvalidRequestHeader, "1")
	}
	resp, err := client.Do(req)
	if ce := (*ContractError)(nil); errors.As(err, &ce) {
		tb.Fatal(ce)
	}
	if err != nil {
		tb.Fatalf("testkit: %s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: raw}
}

// Expect fails tb unless the status is want.
func (r *Response) Expect(tb testing.TB, want int) *Response {
	tb.Helper()
	if r.Status != want {
		tb.Fatalf("status %d, want %d; body: %s", r.Status, want, r.Body)
	}
	return r
}

// JSON decodes the body into v.
func (r *Response) JSON(tb testing.TB, v any) {
	tb.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		tb.Fatalf("testkit: decode %s: %v", r.Body, err)
	}
}

// Map decodes the body as a JSON object.
func (r *Response) Map(tb testing.TB) map[string]any {
	tb.Helper()
	var m map[string]any
	r.JSON(tb, &m)
	return m
}

// ErrorBody is the decoded error envelope.
type ErrorBody struct {
	Error struct {
		Code      string         `json:"code"`
		Message   string         `json:"message"`
		Details   map[string]any `json:"details"`
		RequestID string         `json:"requestId"`
		Timestamp string         `json:"timestamp"`
	} `json:"error"`
}

// ExpectError fails tb unless the response is the envelope with status and
// code; it returns the decoded envelope.
func (r *Response) ExpectError(tb testing.TB, status int, code string) ErrorBody {
	tb.Helper()
	r.Expect(tb, status)
	var e ErrorBody
	r.JSON(tb, &e)
	if e.Error.Code != code {
		tb.Fatalf("error code %q, want %q; body: %s", e.Error.Code, code, r.Body)
	}
	if e.Error.RequestID == "" || e.Error.RequestID != r.Header.Get("X-Request-Id") {
		tb.Fatalf("requestId %q does not match X-Request-Id %q", e.Error.RequestID, r.Header.Get("X-Request-Id"))
	}
	return e
}

// ExpectField fails tb unless the response is a 400 VALIDATION_ERROR naming field.
func (r *Response) ExpectField(tb testing.TB, field string) ErrorBody {
	tb.Helper()
	e := r.ExpectError(tb, http.StatusBadRequest, "VALIDATION_ERROR")
	if got, _ := e.Error.Details["field"].(string); got != field {
		tb.Fatalf("details.field %q, want %q; body: %s", got, field, r.Body)
	}
	return e
}
