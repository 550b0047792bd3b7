// Package tracing sets up OpenTelemetry traces (docs/DECISIONS.md "Tracing"): the
// tracer provider and its exporter, built from the standard OTEL_*
// variables by the SDK, or nothing at all when they name no exporter. The
// instrumentation of each part (HTTP server, SQL, Redis, outbound HTTP,
// asynq tasks) is wired by the composition root only when tracing is on, so
// that with it off the hot paths carry no tracing code (docs/DECISIONS.md
// "Tracing").
package tracing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/gocommerce/shop/internal/config"
	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// Name is the instrumentation scope of the spans this package's helpers
// start.
const Name = "github.com/gocommerce/shop/internal/tracing"

// Propagator is the W3C trace context: what incoming requests, tasks and
// stored events carry.
var Propagator propagation.TextMapPropagator = propagation.TraceContext{}

// Provider is the process's tracer provider. The zero value, and Off(), is
// tracing off: Enabled is false and every tracer it hands out is a no-op.
type Provider struct {
	sdk *sdktrace.TracerProvider
}

// Off returns the disabled provider.
func Off() *Provider { return &Provider{} }

// Settings name the process for the default service name.
type Settings struct {
	// Process is api, worker, scheduler, dev or a command's name; the
	// service is shop-<Process> unless OTEL_SERVICE_NAME says otherwise.
	Process string
	Version string
}

// Setup returns the provider the OTEL_* variables ask for: Off when they
// name no exporter (config.Tracing.Enabled), else a batching provider whose
// exporter (OTLP over HTTP or gRPC, or the console), sampler and resource
// attributes the SDK reads from those variables.
func Setup(ctx context.Context, cfg config.Tracing, s Settings) (*Provider, error) {
	if !cfg.Enabled() {
		return Off(), nil
	}
	exp, err := autoexport.NewSpanExporter(ctx)
	if err != nil {
		return nil, fmt.Errorf("tracing: exporter: %w", err)
	}
	p, err := New(ctx, s, sdktrace.NewBatchSpanProcessor(exp))
	if err != nil {
		_ = exp.Shutdown(ctx)
		return nil, err
	}
	return p, nil
}

// New returns an enabled provider whose spans go to next (tests pass a
// simple processor of an in-memory exporter). The sampler is the SDK's,
// from OTEL_TRACES_SAMPLER (parent-based always-on by default).
func New(ctx context.Context, s Settings, next sdktrace.SpanProcessor) (*Provider, error) {
	res, err := resource.New(ctx,
		resource.WithAttributes(semconv.ServiceName("shop-"+s.Process), semconv.ServiceVersion(s.Version)),
		resource.WithTelemetrySDK(),
		// Last, so OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win.
		resource.WithFromEnv(),
	)
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, fmt.Errorf("tracing: resource: %w", err)
	}
	return &Provider{sdk: sdktrace.NewTracerProvider(
		sdktrace.WithResource(res),
		sdktrace.WithSpanProcessor(dropQueries{}),
		sdktrace.WithSpanProcessor(noOrphanClients{next}),
	)}, nil
}

// Enabled reports whether spans are recorded and exported.
func (p *Provider) Enabled() bool { return p != nil && p.sdk != nil }

// TracerProvider is the provider to hand to instrumentation: a no-op one
// when tracing is off.
func (p *Provider) TracerProvider() trace.TracerProvider {
	if !p.Enabled() {
		return noop.NewTracerProvider()
	}
	return p.sdk
}

// Tracer is this package's tracer (for the scheduler's ticks).
func (p *Provider) Tracer() trace.Tracer { return p.TracerProvider().Tracer(Name) }

// Shutdown exports the spans still buffered and stops the exporter. The
// processes call it last on a graceful shutdown (App.Close).
func (p *Provider) Shutdown(ctx context.Context) error {
	if !p.Enabled() {
		return nil
	}
	return p.sdk.Shutdown(ctx)
}

// Transport wraps an outbound HTTP transport in client spans. With
// propagate false the request carries no traceparent header: it goes to a
// third party that has no use for our trace ids (webhook subscribers).
func (p *Provider) Transport(base http.RoundTripper, propagate bool) http.RoundTripper {
	if !p.Enabled() {
		return base
	}
	if base == nil {
		base = http.DefaultTransport
	}
	prop := Propagator
	if !propagate {
		prop = propagation.NewCompositeTextMapPropagator()
	}
	return otelhttp.NewTransport(base,
		otelhttp.WithTracerProvider(p.sdk),
		otelhttp.WithPropagators(prop),
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method + " " + r.URL.Host }),
	)
}

// dropQueries removes the query string from URL attributes as spans start:
// a query may hold a token, and a trace backend is no place for secrets.
type dropQueries struct{}

var urlKeys = map[attribute.Key]bool{"http.target": true, "http.url": true, "url.full": true}

func (dropQueries) OnStart(_ context.Context, s sdktrace.ReadWriteSpan) {
	for _, kv := range s.Attributes() {
		if kv.Key == "url.query" {
			s.SetAttributes(attribute.String("url.query", ""))
			continue
		}
		if !urlKeys[kv.Key] {
			continue
		}
		if v := kv.Value.AsString(); strings.ContainsRune(v, '?') {
			s.SetAttributes(attribute.String(string(kv.Key), v[:strings.IndexByte(v, '?')]))
		}
	}
}
func (dropQueries) OnEnd(sdktrace.ReadOnlySpan)      {}
func (dropQueries) Shutdown(context.Context) error   { return nil }
func (dropQueries) ForceFlush(context.Context) error { return nil }

// noOrphanClients exports every span but the client spans that have no
// parent: a Redis or SQL call made outside any request, task or tick (a
// background cache refresh, the look-up that finds a webhook's checkout
// trace before the webhook's own span starts) is no trace of its own.
type noOrphanClients struct{ sdktrace.SpanProcessor }

func (n noOrphanClients) OnEnd(s sdktrace.ReadOnlySpan) {
	if s.SpanKind() == trace.SpanKindClient && !s.Parent().IsValid() {
		return
	}
	n.SpanProcessor.OnEnd(s)
}
