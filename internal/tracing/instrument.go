package tracing

import (
	"context"

	"github.com/gofiber/contrib/otelfiber/v2"
	"github.com/gofiber/fiber/v2"
	"github.com/redis/go-redis/extra/redisotel/v9"
	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// InstrumentRedis makes every command sent through rdb a client span (the
// asynq client shares rdb, so enqueues show their Redis calls). Commands
// are named without their arguments: keys and values carry session ids,
// emails and client addresses.
func (p *Provider) InstrumentRedis(rdb *redis.Client) error {
	if !p.Enabled() {
		return nil
	}
	return redisotel.InstrumentTracing(rdb,
		redisotel.WithTracerProvider(p.sdk),
		redisotel.WithDBStatement(false),
		redisotel.WithCallerEnabled(false),
	)
}

// Parent finds the trace a request continues when it carries no
// traceparent header of its own (a payment webhook continues its checkout's).
type Parent func(c *fiber.Ctx) trace.SpanContext

// HTTPServer is the middleware that makes each request a server span named
// by its method and route ("POST /orders"), the child of the request's
// traceparent header, or else of what a parent finds. It must run after the
// middleware that sets the request's context (middleware.RequestContext).
// The client's address is not recorded.
func (p *Provider) HTTPServer(parents ...Parent) fiber.Handler {
	mw := otelfiber.Middleware(
		otelfiber.WithTracerProvider(p.TracerProvider()),
		otelfiber.WithPropagators(Propagator),
		otelfiber.WithCollectClientIP(false),
		otelfiber.WithSpanNameFormatter(func(c *fiber.Ctx) string { return c.Method() + " " + c.Route().Path }),
	)
	if len(parents) == 0 {
		return mw
	}
	return func(c *fiber.Ctx) error {
		for _, find := range parents {
			if sc := find(c); sc.IsValid() {
				c.SetUserContext(trace.ContextWithRemoteSpanContext(c.UserContext(), sc))
				break
			}
		}
		return mw(c)
	}
}

// SpanContextOf parses a stored traceparent value.
func SpanContextOf(traceparent string) trace.SpanContext {
	if traceparent == "" {
		return trace.SpanContext{}
	}
	ctx := Propagator.Extract(context.Background(), propagation.MapCarrier{"traceparent": traceparent})
	return trace.SpanContextFromContext(ctx)
}
