package gateway

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/gocommerce/shop/internal/metrics"
	"github.com/gocommerce/shop/tasks"
	"github.com/redis/go-redis/v9"
)

// MarkerTTL is how long a processed event's duplicate markers live
// (docs/WEBHOOKS.md "Inbound: the payment gateway").
const MarkerTTL = 24 * time.Hour

// markerPrefix keeps the markers outside the cache namespace, so clearing
// the cache never lets a duplicate through.
const markerPrefix = "shop:webhook:gateway:"

// Answer messages (docs/openapi.yaml, the gateway webhook's answers).
const (
	MsgAccepted  = "Webhook accepted"
	MsgDuplicate = "Webhook already processed"
	MsgFailed    = "Webhook processing failed"
)

// Result is the answer to a verified, well-formed webhook: the HTTP status
// and the {processed, message} body.
type Result struct {
	Status    int
	Processed bool
	Message   string
}

// Request is what the HTTP layer hands over: the raw body and the headers
// that matter.
type Request struct {
	Body      []byte
	Signature string
	// EventIDHeader is X-Razorpay-Event-Id, used when the body has no id.
	EventIDHeader string
}

// Receiver verifies, de-duplicates and queues gateway events.
type Receiver struct {
	secret string
	redis  *redis.Client
	queue  tasks.Enqueuer
	log    *slog.Logger
	sim    SimulatedPaymentRecorder
}

// RecordSimulated makes the receiver tell sim of the payment of every
// verified event it accepts, when the shop runs the payment simulator.
func (r *Receiver) RecordSimulated(sim SimulatedPaymentRecorder) { r.sim = sim }

// NewReceiver returns a receiver checking signatures with secret (empty: every
// request is refused as not configured).
func NewReceiver(secret string, rdb *redis.Client, q tasks.Enqueuer, log *slog.Logger) *Receiver {
	return &Receiver{secret: secret, redis: rdb, queue: q, log: log}
}

// Receive handles one webhook request. A refused request (secret unset, bad
// signature, malformed event, missing payment entity) returns a
// VALIDATION_ERROR and writes and queues nothing. Otherwise the Result says
// how to answer: 200 accepted, duplicate or not handled, or 500 when the
// markers could not be set or the event could not be queued (the markers
// are then removed so that the gateway's retry goes through). An event is a
// duplicate when its DedupKey or its BodyKey was seen within MarkerTTL.
func (r *Receiver) Receive(ctx context.Context, req Request) (Result, error) {
	start := time.Now()
	label := "invalid"
	res, err := r.receive(ctx, req, &label)
	metrics.WebhookReceived.WithLabelValues(label).Inc()
	if err != nil || res.Status >= 500 {
		metrics.WebhookFailed.WithLabelValues(label).Inc()
	}
	metrics.WebhookDuration.WithLabelValues(label, "http").Observe(time.Since(start).Seconds())
	return res, err
}

func (r *Receiver) receive(ctx context.Context, req Request, label *string) (Result, error) {
	if err := Verify(r.secret, req.Body, req.Signature); err != nil {
		return Result{}, err
	}
	ev, err := Parse(req.Body)
	if err != nil {
		return Result{}, err
	}
	if !Handled(ev.Name) {
		*label = "other"
		return Result{Status: http.StatusOK, Message: "Event " + ev.Name + " is not handled"}, nil
	}
	*label = ev.Name
	if err := ev.ValidatePayment(); err != nil {
		return Result{}, err
	}
	if r.sim != nil {
		if err := r.sim.RecordPayment(ctx, ev.Payment); err != nil {
			r.log.WarnContext(ctx, "gateway webhook: simulator did not record the payment", "payment_id", ev.Payment.ID, "err", err)
		}
	}
	key := DedupKey(ev, req.EventIDHeader)
	body := BodyKey(req.Body)
	log := r.log.With("event", ev.Name, "dedup_key", key, "gateway_order_id", ev.Payment.OrderID)
	taskKey, err := setMarkers.Run(ctx, r.redis, []string{markerPrefix + key, markerPrefix + body},
		time.Now().Unix(), int64(MarkerTTL/time.Second), key).Text()
	if err != nil {
		log.ErrorContext(ctx, "gateway webhook: duplicate markers not set", "err", err)
		return failed(), nil
	}
	fresh := taskKey == ""
	if fresh {
		taskKey = key
	}
	// The task id is derived from the key of the first delivery of this
	// event, so queueing is idempotent: a duplicate queues again, which is a
	// no-op when the first delivery's task exists and recovers the event
	// when the first delivery's enqueue failed and its markers could not be
	// removed. A replayed body under a new id header queues under the first
	// delivery's key (kept in the body marker), never under its new one.
	task, opts := tasks.NewGatewayEventTask(req.Body, taskKey)
	if err := tasks.Enqueue(ctx, r.queue, task, opts...); err != nil {
		log.ErrorContext(ctx, "gateway webhook: enqueue failed", "err", err, "duplicate", !fresh)
		if fresh {
			r.removeMarkers(ctx, log, key, body)
		}
		return failed(), nil
	}
	if taskKey != key {
		log.WarnContext(ctx, "gateway webhook: a delivered body came again under another event id", "first_dedup_key", taskKey)
	}
	if !fresh {
		return Result{Status: http.StatusOK, Processed: true, Message: MsgDuplicate}, nil
	}
	return Result{Status: http.StatusOK, Processed: true, Message: MsgAccepted}, nil
}

// setMarkers sets the event-key marker (KEYS[1]) and the body marker
// (KEYS[2]) together, or neither: an event is a duplicate when either
// exists. It returns "" when both were set (a new event), else the key the
// event was first queued under: ARGV[3] itself when its marker exists, or
// the key kept in the body marker. ARGV: marker time, TTL in seconds, key.
var setMarkers = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
	return ARGV[3]
end
local first = redis.call('GET', KEYS[2])
if first then
	return first
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[2])
return ''
`)

// removeMarkers lets the gateway's retry of an event that was not queued
// go through.
func (r *Receiver) removeMarkers(ctx context.Context, log *slog.Logger, keys ...string) {
	// The request context may be what failed; removing the markers must not
	// depend on it.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	for i, k := range keys {
		keys[i] = markerPrefix + k
	}
	if err := r.redis.Del(ctx, keys...).Err(); err != nil {
		log.WarnContext(ctx, "gateway webhook: markers not removed; the retry will re-queue as a duplicate", "err", err)
	}
}

func failed() Result {
	return Result{Status: http.StatusInternalServerError, Processed: false, Message: MsgFailed}
}
