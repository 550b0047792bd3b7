package testkit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/gocommerce/shop/docs"
	"github.com/google/uuid"
)

// InvalidRequestHeader marks a request that deliberately breaks
// docs/openapi.yaml (a validation or security test): ContractTransport sends
// it without checking it, strips the header, and still checks the response.
// Req.Invalid sets it.
const InvalidRequestHeader = "X-Testkit-Invalid"

// ContractTransport checks every exchange that goes through it against
// docs/openapi.yaml (docs/DECISIONS.md, "The published API document"):
//   - the request: its route is documented, its path, query and header
//     parameters and its body match the operation, and it sends no query
//     parameter the operation does not declare;
//   - the response: its status is listed by the operation (a 5xx may fall to
//     the operation's default), its Content-Type is one the status documents,
//     its body validates against the schema, an object carries no member the
//     schema does not declare, and a status documented without content has
//     an empty body.
//
// A mismatch is returned as a *ContractError from RoundTrip (Do fails the
// test with it). The testkit client uses it; a test with its own
// http.Client sets Transport: testkit.ContractTransport{}.
type ContractTransport struct {
	// Base sends the request; http.DefaultTransport when nil.
	Base http.RoundTripper
}

// ContractError is a request or response that does not match the document.
type ContractError struct {
	// Exchange is "METHOD /path (operationId)".
	Exchange string
	// Side is "request" or "response <status>".
	Side string
	// Problems are the mismatches, each with its JSON path or parameter.
	Problems []string
}

func (e *ContractError) Error() string {
	return fmt.Sprintf("docs/openapi.yaml contract: %s: %s does not match the document:\n  %s",
		e.Exchange, e.Side, strings.Join(e.Problems, "\n  "))
}

// RoundTrip validates req, sends it, and validates the response.
func (t ContractTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	c, err := loadContract()
	if err != nil {
		return nil, err
	}
	req = req.Clone(req.Context())
	deliberate := req.Header.Get(InvalidRequestHeader) != ""
	req.Header.Del(InvalidRequestHeader)
	reqBody, err := drain(&req.Body)
	if err != nil {
		return nil, err
	}

	route, params, findErr := c.find(req)
	exchange := req.Method + " " + req.URL.Path
	if route != nil {
		exchange += " (" + route.Operation.OperationID + ")"
	}
	if findErr != nil && !deliberate {
		return nil, &ContractError{Exchange: exchange, Side: "request", Problems: []string{findErr.Error() +
			"; document the route, or mark a deliberately wrong request with Req.Invalid"}}
	}
	if route != nil && !deliberate {
		if problems := c.checkRequest(req, reqBody, route, params); len(problems) > 0 {
			return nil, &ContractError{Exchange: exchange, Side: "request", Problems: append(problems,
				"(a request that breaks the document on purpose sets Req.Invalid)")}
		}
	}
	req.Body = http.NoBody // an empty non-nil body would go out chunked
	if len(reqBody) > 0 {
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}

	resp, err := base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	respBody, err := drain(&resp.Body)
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(respBody))
	var problems []string
	if route != nil {
		problems = c.checkResponse(req, route, params, resp, respBody)
	} else {
		problems = c.checkUnroutedResponse(resp, respBody)
	}
	if len(problems) > 0 {
		return nil, &ContractError{Exchange: exchange, Side: "response " + strconv.Itoa(resp.StatusCode), Problems: problems}
	}
	return resp, nil
}

func drain(body *io.ReadCloser) ([]byte, error) {
	if *body == nil {
		return nil, nil
	}
	defer (*body).Close()
	return io.ReadAll(*body)
}

// contract is the loaded document with its router.
type contract struct {
	doc    *openapi3.T
	router routers.Router
	// wildcards are the paths documented with a trailing /{path}, which
	// stands for any rest of the path (Fiber's trailing *).
	wildcards []string
	options   *openapi3filter.Options
}

var loadContract = sync.OnceValues(func() (*contract, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(docs.OpenAPI)
	if err != nil {
		return nil, fmt.Errorf("testkit: docs/openapi.yaml does not load: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("testkit: docs/openapi.yaml is not a valid OpenAPI document: %w", err)
	}
	// Routes are matched on the path alone: tests run on 127.0.0.1 ports.
	doc.Servers = nil
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("testkit: docs/openapi.yaml routes: %w", err)
	}
	c := &contract{doc: doc, router: router}
	for _, p := range doc.Paths.InMatchingOrder() {
		if prefix, ok := strings.CutSuffix(p, "/{path}"); ok {
			c.wildcards = append(c.wildcards, prefix)
		}
	}
	formats := openapi3.WithStringFormatValidators(map[string]openapi3.StringFormatValidator{
		"uuid":  openapi3.NewCallbackValidator(func(s string) error { _, err := uuid.Parse(s); return err }),
		"email": openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForEmail),
	})
	c.options = &openapi3filter.Options{
		AuthenticationFunc:      openapi3filter.NoopAuthenticationFunc, // credentials are the tests' subject
		MultiError:              true,
		IncludeResponseStatus:   true,
		SchemaValidationOptions: []openapi3.SchemaValidationOption{formats},
	}
	return c, nil
})

// find returns the documented operation of req.
func (c *contract) find(req *http.Request) (*routers.Route, map[string]string, error) {
	match := req
	for _, prefix := range c.wildcards {
		if rest, ok := strings.CutPrefix(req.URL.Path, prefix); ok && (rest == "" || rest[0] == '/') {
			// The router matches one segment per parameter: route the
			// request as if the rest were one segment.
			match = req.Clone(req.Context())
			match.URL.Path, match.URL.RawPath = prefix+"/rest", ""
			break
		}
	}
	route, params, err := c.router.FindRoute(match)
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s is not a documented route (%v)", req.Method, req.URL.Path, err)
	}
	return route, params, nil
}

func (c *contract) input(req *http.Request, body []byte, route *routers.Route, params map[string]string) *openapi3filter.RequestValidationInput {
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	if len(body) == 0 {
		r.Body = http.NoBody
	}
	return &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route, Options: c.options}
}

// checkRequest lists how req differs from its operation.
func (c *contract) checkRequest(req *http.Request, body []byte, route *routers.Route, params map[string]string) []string {
	var problems []string
	if err := openapi3filter.ValidateRequest(req.Context(), c.input(req, body, route, params)); err != nil {
		problems = append(problems, describe(err)...)
	}
	// kin-openapi's RejectWhenRequestBodyNotSpecified refuses every body
	// (v0.142), so a body sent to an operation that takes none is found here.
	if route.Operation.RequestBody == nil && len(body) > 0 {
		problems = append(problems, "body: the operation takes no request body")
	}
	declared := map[string]bool{}
	for _, params := range []openapi3.Parameters{route.PathItem.Parameters, route.Operation.Parameters} {
		for _, p := range params {
			if p.Value != nil && p.Value.In == openapi3.ParameterInQuery {
				declared[p.Value.Name] = true
			}
		}
	}
	for name := range req.URL.Query() {
		if !declared[name] {
			problems = append(problems, fmt.Sprintf("query parameter %q is not declared by the operation", name))
		}
	}
	sort.Strings(problems)
	return problems
}

// checkResponse lists how resp differs from what route documents.
func (c *contract) checkResponse(req *http.Request, route *routers.Route, params map[string]string, resp *http.Response, body []byte) []string {
	op := route.Operation
	ref := op.Responses.Status(resp.StatusCode)
	if ref == nil && resp.StatusCode >= 500 {
		ref = op.Responses.Default()
	}
	if ref == nil || ref.Value == nil {
		return []string{fmt.Sprintf("status %d is not documented (documented: %s)", resp.StatusCode, strings.Join(statuses(op), ", "))}
	}
	documented := ref.Value
	if len(documented.Content) == 0 {
		if len(body) > 0 {
			return []string{fmt.Sprintf("status %d is documented without a body but the response has %d bytes (Content-Type %q)",
				resp.StatusCode, len(body), resp.Header.Get("Content-Type"))}
		}
		return nil
	}
	ct := resp.Header.Get("Content-Type")
	media := documented.Content.Get(ct)
	if media == nil {
		return []string{fmt.Sprintf("Content-Type %q is not documented for status %d (documented: %s)",
			ct, resp.StatusCode, strings.Join(mediaTypes(documented.Content), ", "))}
	}
	opts := *c.options
	isJSON := isJSONMedia(ct)
	// Bodies other than JSON and YAML (HTML, scripts, metrics text) are
	// described, not schema-checked.
	opts.ExcludeResponseBody = !isJSON && !strings.Contains(ct, "yaml")
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: c.input(req, nil, route, params),
		Status:                 resp.StatusCode, Header: resp.Header,
		Body: io.NopCloser(bytes.NewReader(body)), Options: &opts,
	}
	if err := openapi3filter.ValidateResponse(req.Context(), in); err != nil {
		return describe(err)
	}
	if isJSON && media.Schema != nil {
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			return []string{"body is not JSON: " + err.Error()}
		}
		return undocumentedMembers(media.Schema.Value, v)
	}
	return nil
}

// checkUnroutedResponse checks the answer to a deliberately undocumented
// request (an unknown route or method): an error must be the envelope.
func (c *contract) checkUnroutedResponse(resp *http.Response, body []byte) []string {
	if resp.StatusCode < 400 || !isJSONMedia(resp.Header.Get("Content-Type")) {
		return nil
	}
	ref := c.doc.Components.Schemas["Error"]
	if ref == nil {
		return []string{"components/schemas/Error is missing"}
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return []string{"body is not JSON: " + err.Error()}
	}
	if err := ref.Value.VisitJSON(v, openapi3.MultiErrors(), openapi3.VisitAsResponse()); err != nil {
		return describe(err)
	}
	return undocumentedMembers(ref.Value, v)
}

func isJSONMedia(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

func statuses(op *openapi3.Operation) []string {
	var out []string
	for code := range op.Responses.Map() {
		out = append(out, code)
	}
	sort.Strings(out)
	return out
}

func mediaTypes(content openapi3.Content) []string {
	var out []string
	for mt := range content {
		out = append(out, mt)
	}
	sort.Strings(out)
	return out
}

// describe flattens kin-openapi's errors into one line per problem, each
// naming the parameter or the JSON path of the value.
func describe(err error) []string {
	switch e := err.(type) {
	case openapi3.MultiError:
		var out []string
		for _, inner := range e {
			out = append(out, describe(inner)...)
		}
		return out
	case *openapi3filter.RequestError:
		prefix := "body"
		if e.Parameter != nil {
			prefix = e.Parameter.In + " parameter " + strconv.Quote(e.Parameter.Name)
		}
		return prefixed(prefix, e.Err, e.Reason)
	case *openapi3filter.ResponseError:
		return prefixed("body", e.Err, e.Reason)
	case *openapi3.SchemaError:
		return []string{jsonPath(e.JSONPointer()) + ": " + e.Reason}
	}
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		return describe(se)
	}
	return []string{err.Error()}
}

func prefixed(prefix string, err error, reason string) []string {
	if err == nil {
		return []string{prefix + ": " + reason}
	}
	var out []string
	for _, p := range describe(err) {
		out = append(out, prefix+": "+p)
	}
	return out
}

// jsonPath renders a JSON pointer's parts as $.a[0].b.
func jsonPath(parts []string) string {
	var b strings.Builder
	b.WriteString("$")
	for _, p := range parts {
		if _, err := strconv.Atoi(p); err == nil {
			b.WriteString("[" + p + "]")
		} else {
			b.WriteString("." + p)
		}
	}
	return b.String()
}
