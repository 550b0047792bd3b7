// Package idempotent is the Idempotency-Key middleware of the storefront
// and administrator writes (docs/DECISIONS.md
// "Idempotency-Key"). It runs after authentication, so every key is scoped
// by its caller, and keeps answers through internal/idempotency. A request
// without the header passes straight through: no query, no allocation.
package idempotent

import (
	"context"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// Header names.
const (
	KeyHeader      = "Idempotency-Key"
	ReplayedHeader = "Idempotent-Replayed"
)

// maxKeyLen is the longest key accepted (docs/DECISIONS.md "Idempotency-Key").
const maxKeyLen = 255

// finishTimeout bounds keeping an answer: it runs after the handler, even
// when the client has gone.
const finishTimeout = 5 * time.Second

const localReplayed = "idempotentReplayed"

// Caller names who sends a request ("admin:<id>", "customer:<id>",
// "session:<id>"); it runs after authentication. Its error is the answer.
type Caller func(c *fiber.Ctx) (string, error)

// Middleware keeps and replays the answers of keyed writes.
type Middleware struct {
	store *idempotency.Store
	log   *slog.Logger
}

// New returns the middleware on store.
func New(store *idempotency.Store, log *slog.Logger) *Middleware {
	return &Middleware{store: store, log: log}
}

// Replayed reports whether the request was answered from a kept answer, or
// with the change an earlier run recorded before it died (the admin guard
// writes no audit entry for it: nothing changed).
func Replayed(c *fiber.Ctx) bool {
	r, _ := c.Locals(localReplayed).(bool)
	return r
}

// Handler returns the middleware of routes whose caller is named by
// caller. A nil Middleware passes every request through. Errors:
// VALIDATION_ERROR (a malformed key; the caller's own errors), CONFLICT
// (another request used the key; it is still running, with Retry-After: 1;
// its answer carried credentials and is not kept), SERVICE_UNAVAILABLE.
func (m *Middleware) Handler(caller Caller) fiber.Handler {
	return func(c *fiber.Ctx) error {
		key := c.Get(KeyHeader)
		if key == "" || m == nil {
			return c.Next()
		}
		if !validKey(key) {
			return apperr.Invalid(KeyHeader, "must be 1 to 255 printable ASCII characters")
		}
		who, err := caller(c)
		if err != nil {
			return err
		}
		sc := idempotency.Scope{Caller: who, Method: c.Method(), Route: c.Route().Path, Key: key}
		claim, err := m.store.Begin(c.UserContext(), sc, idempotency.Fingerprint(c.OriginalURL(), c.Body()))
		if err != nil {
			return apperr.Wrap(apperr.Unavailable, "idempotency keys are unavailable", err)
		}
		switch claim.Outcome {
		case idempotency.Replay:
			return replay(c, claim.Answer)
		case idempotency.Mismatch:
			return apperr.New(apperr.Conflict, "this Idempotency-Key was already used with another request").
				WithDetails(map[string]any{"field": KeyHeader, "issue": "used with another request"})
		case idempotency.Busy:
			c.Set(fiber.HeaderRetryAfter, "1")
			return apperr.New(apperr.Conflict, "a request with this Idempotency-Key is still being processed; retry shortly").
				WithDetails(map[string]any{"field": KeyHeader, "issue": "in progress"})
		}
		return m.run(c, idempotency.Run{Scope: sc, Lease: claim.Lease, ChangeRef: claim.ChangeRef})
	}
}

func validKey(k string) bool {
	if len(k) > maxKeyLen {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x20 || k[i] > 0x7e {
			return false
		}
	}
	return true
}

// run serves the request that holds the key and keeps its answer: any but
// a 5xx, a 429 or one with Retry-After (a 409 "another refund is waiting for
// the gateway"), which tell the client to try again, so the key is freed for
// that retry. A handler's error is rendered here, so that its answer is the
// one kept.
func (m *Middleware) run(c *fiber.Ctx, r idempotency.Run) error {
	sc, lease := r.Scope, r.Lease
	c.SetUserContext(idempotency.WithRun(c.UserContext(), r))
	if r.ChangeRef != "" {
		// The change was made by a run that died before its answer was
		// kept; this one answers with it and changes nothing, so it is not
		// audited again.
		c.Locals(localReplayed, true)
	}
	done := false
	defer func() {
		if !done { // a panic: Recover answers 500, and the key is freed
			m.abandon(c, sc, lease)
		}
	}()
	if err := c.Next(); err != nil {
		if herr := c.App().ErrorHandler(c, err); herr != nil {
			done = true
			m.abandon(c, sc, lease)
			return herr
		}
	}
	done = true
	resp := c.Response()
	status := resp.StatusCode()
	if status >= fiber.StatusInternalServerError || status == fiber.StatusTooManyRequests ||
		len(resp.Header.Peek(fiber.HeaderRetryAfter)) > 0 {
		m.abandon(c, sc, lease)
		return nil
	}
	a := idempotency.Answer{
		Status:      status,
		ContentType: string(resp.Header.ContentType()),
		Location:    string(resp.Header.Peek(fiber.HeaderLocation)),
		Body:        append([]byte{}, resp.Body()...),
		Withheld:    string(resp.Header.Peek(fiber.HeaderCacheControl)) == "no-store",
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.UserContext()), finishTimeout)
	defer cancel()
	if err := m.store.Finish(ctx, sc, lease, a); err != nil {
		// The work is done; a repeat will find the key running until the
		// lease lapses, then run again (guarded by the work itself).
		m.log.ErrorContext(ctx, "idempotency key answer not kept", "route", sc.Route, "err", err)
	}
	return nil
}

func (m *Middleware) abandon(c *fiber.Ctx, sc idempotency.Scope, lease uuid.UUID) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.UserContext()), finishTimeout)
	defer cancel()
	if err := m.store.Abandon(ctx, sc, lease); err != nil {
		m.log.ErrorContext(ctx, "idempotency key not freed; it frees itself when its lease lapses", "route", sc.Route, "err", err)
	}
}

// replay answers with a kept answer, byte for byte.
func replay(c *fiber.Ctx, a idempotency.Answer) error {
	if a.Withheld {
		return apperr.New(apperr.Conflict, "the request with this Idempotency-Key was done; its answer carried credentials and is not kept").
			WithDetails(map[string]any{"field": KeyHeader, "issue": "done; answer not kept"})
	}
	c.Locals(localReplayed, true)
	c.Set(ReplayedHeader, "true")
	if a.Location != "" {
		c.Set(fiber.HeaderLocation, a.Location)
	}
	c.Status(a.Status)
	c.Response().SetBodyRaw(a.Body)
	if a.ContentType != "" {
		c.Response().Header.SetContentType(a.ContentType)
	}
	return nil
}
