package bench

import (
	"fmt"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// BenchmarkHandler runs requests through the API's handler chain (every
// middleware, the router, the handler) in the benchmark goroutine, with no
// socket or HTTP client: the server-side cost of a request, which the
// figures above hide under the client's and the loopback's. One RequestCtx
// is reused as a keep-alive connection reuses it. Besides ns/op it reports
// cpu-ns/op, the process's CPU time per request, which a busy machine
// disturbs far less than wall time.
func BenchmarkHandler(b *testing.B) {
	f := newFixture(b, true)
	handler := f.app.Server.App.Handler()
	// warm requests go first, so that the timed loop measures cache hits
	// where the storefront serves them.
	run := func(b *testing.B, want, warm int, prepare func(req *fasthttp.Request, i int)) {
		drive(b, handler, warm, func(req *fasthttp.Request, i int) int { prepare(req, i); return want })
	}
	get := func(path func(i int) string) func(*fasthttp.Request, int) {
		return func(req *fasthttp.Request, i int) {
			req.Header.SetMethod(http.MethodGet)
			req.SetRequestURI(path(i))
		}
	}
	b.Run("healthz", func(b *testing.B) {
		run(b, http.StatusOK, 1, get(func(int) string { return "/healthz" }))
	})
	b.Run("products", func(b *testing.B) {
		run(b, http.StatusOK, 20, get(func(i int) string { return fmt.Sprintf("/products?limit=20&page=%d", 1+i%20) }))
	})
	b.Run("product", func(b *testing.B) {
		run(b, http.StatusOK, len(f.products), get(func(i int) string { return "/products/" + f.products[i%len(f.products)].String() }))
	})
	b.Run("cart-add", func(b *testing.B) {
		run(b, http.StatusCreated, 0, func(req *fasthttp.Request, i int) {
			req.Header.SetMethod(http.MethodPost)
			req.SetRequestURI("/cart/items")
			req.Header.SetContentType("application/json")
			req.Header.Set("X-Session-Id", fmt.Sprintf("bench-handler-%04d", i%5000))
			req.SetBodyString(fmt.Sprintf(`{"variantId":%q,"quantity":1}`, f.variants[i%len(f.variants)]))
		})
	})
}

// BenchmarkFiberImmutable prices Fiber's Immutable mode (docs/DECISIONS.md,
// Foundation) on a bare app that reads what a storefront request reads: the
// method, path, a path parameter, query values, headers and the body.
func BenchmarkFiberImmutable(b *testing.B) {
	var sink string
	newApp := func(immutable bool) fasthttp.RequestHandler {
		app := fiber.New(fiber.Config{Immutable: immutable, DisableStartupMessage: true, CaseSensitive: true})
		app.Use(func(c *fiber.Ctx) error {
			c.Locals("requestId", c.Get(fiber.HeaderXRequestID))
			err := c.Next()
			sink = c.Method() + c.Path()
			return err
		})
		app.Get("/products/:id", func(c *fiber.Ctx) error {
			sink = c.Params("id") + c.Query("page") + c.Query("limit") + c.Get("X-Session-Id")
			return c.SendString(`{}`)
		})
		app.Post("/cart/items", func(c *fiber.Ctx) error {
			sink = string(c.Body()[:1]) + c.Get("X-Session-Id")
			return c.SendStatus(http.StatusCreated)
		})
		return app.Handler()
	}
	requests := map[string]func(req *fasthttp.Request, i int) int{
		"get": func(req *fasthttp.Request, _ int) int {
			req.SetRequestURI("/products/3f2b9c1e-8f7d-4a52-9a3e-5d0c1b2a7e64?page=3&limit=20")
			return http.StatusOK
		},
		"post": func(req *fasthttp.Request, _ int) int {
			req.Header.SetMethod(http.MethodPost)
			req.SetRequestURI("/cart/items")
			req.SetBodyString(`{"variantId":"3f2b9c1e-8f7d-4a52-9a3e-5d0c1b2a7e64","quantity":1}`)
			return http.StatusCreated
		},
	}
	for _, name := range []string{"get", "post"} {
		for _, immutable := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/immutable=%v", name, immutable), func(b *testing.B) {
				drive(b, newApp(immutable), 1, func(req *fasthttp.Request, i int) int {
					req.Header.Set(fiber.HeaderXRequestID, "req-0123456789")
					req.Header.Set("X-Session-Id", "bench-cart-0042")
					return requests[name](req, i)
				})
			})
		}
	}
	_ = sink
}

// drive sends b.N requests, each built by prepare (which returns the status
// it expects), to handler on one reused RequestCtx, after warm untimed ones.
func drive(b *testing.B, handler fasthttp.RequestHandler, warm int, prepare func(req *fasthttp.Request, i int) int) {
	remote := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 40000}
	var ctx fasthttp.RequestCtx
	var req fasthttp.Request
	do := func(i int) {
		req.Reset()
		want := prepare(&req, i)
		ctx.Init(&req, remote, nil)
		handler(&ctx)
		if got := ctx.Response.StatusCode(); got != want {
			b.Fatalf("status %d, want %d: %s", got, want, ctx.Response.Body())
		}
	}
	for i := range warm {
		do(i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		do(i)
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
