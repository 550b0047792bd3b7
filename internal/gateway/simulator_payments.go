package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/redis/go-redis/v9"
)

// The simulator's payments: it refuses a refund as Razorpay does (an
// unknown payment, one not captured, more than the payment has left), so
// it must know the payments it simulated and what their refunds took.
// Payments are registered when a simulated payment event is built
// (BuildEvent, in that process's memory) and when an event is received by
// the API (Receiver with RecordSimulated, in Redis); tests that write
// payment rows directly register them with RegisterSimulatedPayment. With
// Redis (NewSharedSimulator: the API, the worker and reconcile of one shop)
// the payments and refunds are shared by every process; a payment known
// only to this process's memory is copied into Redis when first refunded.

// SimPayment is a payment the simulator knows.
type SimPayment struct {
	ID     string
	Amount money.Amount
	// Captured is false for a payment only authorized.
	Captured bool
}

// RegisterSimulatedPayment tells the simulators of this process about
// payment p (a captured payment written by a test fixture, say); a payment
// registered again takes the new amount (a test that changes its fixture's
// payment says so again) and stays captured once captured.
func RegisterSimulatedPayment(p SimPayment) { simBook.register(p) }

// SimulatedPayment returns the payment id this process registered (by
// BuildEvent or RegisterSimulatedPayment), if any: razorpaytest knows
// them too.
func SimulatedPayment(id string) (SimPayment, bool) { return simBook.payment(id) }

// The refusals, in Razorpay's words (400 BAD_REQUEST_ERROR).
const (
	SimNoSuchPayment = "The id provided does not exist"
	SimOverRefund    = "The refund amount provided is greater than amount captured"
	SimOverLeft      = "The refund amount provided is greater than the amount that can be refunded"
	SimNotCaptured   = "The payment has not been captured"
)

// errSim is a refusal of the simulator, as Razorpay's error body says it.
func errSim(desc string) error {
	return refused("refund", fmt.Errorf("400 BAD_REQUEST_ERROR: %s", desc))
}

// checkRefund is the rule both books apply to a new refund of amount of
// a payment known (ok) as p, whose refunds so far took refunded.
func checkRefund(p SimPayment, ok bool, refunded, amount money.Amount) error {
	switch {
	case !ok:
		return errSim(SimNoSuchPayment)
	case !p.Captured:
		return errSim(SimNotCaptured)
	case amount > p.Amount:
		return errSim(SimOverRefund)
	case refunded+amount > p.Amount:
		return errSim(SimOverLeft)
	}
	return nil
}

// simShared is the Redis book of NewSharedSimulator.
type simShared struct {
	rdb *redis.Client
}

// simTTL is how long the shared book keeps a payment and its refunds.
const simTTL = 90 * 24 * time.Hour

const simPrefix = "shop:gwsim:"

func simPayKey(id string) string     { return simPrefix + "pay:" + id }
func simRefundsKey(id string) string { return simPrefix + "refunds:" + id }
func simIdemKey(key string) string   { return simPrefix + "key:" + key }

// simRegister sets the payment (KEYS[1]) to amount ARGV[1], captured
// ARGV[2] (1/0), keeping what its refunds took and a capture once known.
var simRegister = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'amount', ARGV[1], 'captured', ARGV[2], 'refunded', 0)
else
  redis.call('HSET', KEYS[1], 'amount', ARGV[1])
  if ARGV[2] == '1' then redis.call('HSET', KEYS[1], 'captured', 1) end
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`)

// simRefund makes a refund: KEYS payment, its refunds list, the key's
// refund; ARGV amount, refund JSON, ttl ms, key ("" none), payment id.
// Returns {"prev", json} for a key seen, {"err", description} for a
// refusal, {"ok", json} for a new refund.
var simRefundScript = redis.NewScript(`
if ARGV[4] ~= '' then
  local prev = redis.call('GET', KEYS[3])
  if prev then return {'prev', prev} end
end
if redis.call('EXISTS', KEYS[1]) == 0 then return {'err', 'unknown'} end
local p = redis.call('HMGET', KEYS[1], 'amount', 'captured', 'refunded')
local amount, refunded, ask = tonumber(p[1]), tonumber(p[3]), tonumber(ARGV[1])
if p[2] ~= '1' then return {'err', 'uncaptured'} end
if ask > amount then return {'err', 'over'} end
if refunded + ask > amount then return {'err', 'left'} end
redis.call('HINCRBY', KEYS[1], 'refunded', ask)
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
if ARGV[4] ~= '' then redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[3]) end
return {'ok', ARGV[2]}`)

func boolFlag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func (b *simShared) register(ctx context.Context, p SimPayment) error {
	return simRegister.Run(ctx, b.rdb, []string{simPayKey(p.ID)}, strconv.FormatInt(int64(p.Amount), 10),
		boolFlag(p.Captured), simTTL.Milliseconds()).Err()
}

type simWireRefund struct {
	Refund
	PaymentID string
}

func (b *simShared) refund(ctx context.Context, r RefundRequest) (Refund, error) {
	// A payment this process registered (a test's fixture) joins the book.
	if p, ok := simBook.payment(r.PaymentID); ok {
		if err := b.register(ctx, p); err != nil {
			return Refund{}, unavailable("refund", err)
		}
	}
	made := simWireRefund{Refund: Refund{ID: "rfnd_sim_" + randomHex(8), Amount: r.Amount, Status: RefundProcessed, Key: r.Key},
		PaymentID: r.PaymentID}
	body, _ := json.Marshal(made)
	res, err := simRefundScript.Run(ctx, b.rdb, []string{simPayKey(r.PaymentID), simRefundsKey(r.PaymentID), simIdemKey(r.Key)},
		int64(r.Amount), string(body), simTTL.Milliseconds(), r.Key, r.PaymentID).StringSlice()
	if err != nil || len(res) != 2 {
		return Refund{}, unavailable("refund", cmpErr(err))
	}
	switch res[0] {
	case "err":
		return Refund{}, errSim(map[string]string{"unknown": SimNoSuchPayment, "uncaptured": SimNotCaptured,
			"over": SimOverRefund, "left": SimOverLeft}[res[1]])
	case "prev":
		var prev simWireRefund
		if err := json.Unmarshal([]byte(res[1]), &prev); err != nil {
			return Refund{}, unavailable("refund", err)
		}
		if prev.PaymentID != r.PaymentID || prev.Amount != r.Amount {
			return Refund{}, refused("refund", fmt.Errorf("a different request with key %s was already processed", r.Key))
		}
		return prev.Refund, nil
	}
	return made.Refund, nil
}

func cmpErr(err error) error {
	if err == nil {
		return errors.New("unexpected answer from the simulator's book")
	}
	return err
}

func (b *simShared) list(ctx context.Context, paymentID string) ([]Refund, error) {
	items, err := b.rdb.LRange(ctx, simRefundsKey(paymentID), 0, -1).Result()
	if err != nil {
		return nil, unavailable("refunds", err)
	}
	out := make([]Refund, 0, len(items))
	for _, it := range items {
		var r simWireRefund
		if json.Unmarshal([]byte(it), &r) == nil {
			out = append(out, r.Refund)
		}
	}
	return out, nil
}

// simPayments is the memory book's payments, beside its refunds.
type simPayments struct {
	mu   sync.Mutex
	byID map[string]SimPayment
}

func (b *simRefundBook) register(p SimPayment) {
	b.pays.mu.Lock()
	defer b.pays.mu.Unlock()
	if b.pays.byID == nil {
		b.pays.byID = map[string]SimPayment{}
	}
	if old, ok := b.pays.byID[p.ID]; ok {
		old.Captured = old.Captured || p.Captured
		old.Amount = p.Amount
		b.pays.byID[p.ID] = old
		return
	}
	if len(b.pays.byID) >= simMaxRefunds {
		clear(b.pays.byID)
	}
	b.pays.byID[p.ID] = p
}

func (b *simRefundBook) payment(id string) (SimPayment, bool) {
	b.pays.mu.Lock()
	defer b.pays.mu.Unlock()
	p, ok := b.pays.byID[id]
	return p, ok
}

// refundedOf is what the memory book's refunds of payment id took; the
// caller holds b.mu.
func (b *simRefundBook) refundedOf(id string) money.Amount {
	var sum money.Amount
	for _, r := range b.all {
		if r.paymentID == id {
			sum += r.Amount
		}
	}
	return sum
}

// SimulatedPaymentRecorder registers the payments of received events in
// the shared book (Receiver.RecordSimulated).
type SimulatedPaymentRecorder interface {
	RecordPayment(ctx context.Context, p Payment) error
}

// RecordPayment registers payment p of a received event (captured or
// authorized; a failed payment is not one that can be refunded).
func (s *SimulatorProvider) RecordPayment(ctx context.Context, p Payment) error {
	if p.ID == "" || p.Status == "failed" {
		return nil
	}
	sp := SimPayment{ID: p.ID, Amount: money.Amount(p.Amount), Captured: p.Status == "captured"}
	simBook.register(sp)
	if s.shared == nil {
		return nil
	}
	return s.shared.register(ctx, sp)
}
