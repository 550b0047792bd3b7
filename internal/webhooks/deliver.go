package webhooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/metrics"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Standard Webhooks headers.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

// Deliverer makes delivery attempts, following the gitea pattern: the task
// carries the delivery id; the handler re-reads the row, does nothing when it
// is settled, makes the attempt, logs it, and queues the next one.
type Deliverer struct {
	db     *gorm.DB
	queue  tasks.Enqueuer
	log    *slog.Logger
	client *http.Client
	retry  RetryPolicy
}

// NewDeliverer returns a deliverer sending with client and spacing attempts
// with retry.
func NewDeliverer(db *gorm.DB, q tasks.Enqueuer, log *slog.Logger, client *http.Client, retry RetryPolicy) *Deliverer {
	return &Deliverer{db: db, queue: q, log: log, client: client, retry: retry}
}

// attemptResult is what one HTTP attempt gave.
type attemptResult struct {
	status   int
	duration time.Duration
	err      error
	errText  string
}

// Outcomes of an attempt (also the metric's labels).
const (
	outcomeSucceeded = "succeeded"
	outcomeRetry     = "retry"
	outcomeFailed    = "failed"
	outcomeDisabled  = "disabled"
	outcomeBlocked   = "blocked"
)

// Deliver makes attempt n of a delivery. A delivery that is gone or settled
// is left alone; an attempt already made only makes sure the next one is
// queued. Errors mean the attempt could not be made or logged and the task
// should run again; a receiver's failure is not an error.
func (d *Deliverer) Deliver(ctx context.Context, deliveryID uuid.UUID, attempt int) error {
	var del models.WebhookDelivery
	if err := d.db.WithContext(ctx).Take(&del, "id = ?", deliveryID).Error; err != nil {
		if database.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("webhooks.deliver: %w", err)
	}
	if del.Status != models.DeliveryPending {
		return nil
	}
	if del.Attempts >= attempt {
		return d.queueNext(ctx, del)
	}
	attempt = del.Attempts + 1
	var sub models.WebhookSubscription
	if err := d.db.WithContext(ctx).Take(&sub, "id = ?", del.SubscriptionID).Error; err != nil {
		if database.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("webhooks.deliver: %w", err)
	}
	if !sub.IsActive {
		return d.endWithoutAttempt(ctx, del, attempt, models.DeliveryFailed, "subscription is disabled")
	}
	var ev models.Event
	if err := d.db.WithContext(ctx).Take(&ev, "id = ?", del.EventID).Error; err != nil {
		return fmt.Errorf("webhooks.deliver: event: %w", err)
	}
	payload, err := body(&ev)
	if err != nil {
		return d.endWithoutAttempt(ctx, del, attempt, models.DeliveryFailed, "event data is not valid JSON")
	}
	key, err := SecretKey(sub.Secret)
	if err != nil {
		return d.endWithoutAttempt(ctx, del, attempt, models.DeliveryFailed, "subscription secret is invalid")
	}
	res := d.send(ctx, sub.URL, key, del.ID.String(), payload)
	if ctx.Err() != nil {
		// The worker is stopping: this was not a real attempt; run it again.
		return fmt.Errorf("webhooks.deliver: interrupted: %w", ctx.Err())
	}
	return d.record(ctx, del, &sub, attempt, res)
}

// send makes one signed POST.
func (d *Deliverer) send(ctx context.Context, target string, key []byte, msgID string, payload []byte) attemptResult {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(payload))
	if err != nil {
		return attemptResult{err: err, errText: "invalid target URL"}
	}
	ts := time.Now().Unix()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "shop-webhooks/1")
	req.Header.Set(HeaderID, msgID)
	req.Header.Set(HeaderTimestamp, strconv.FormatInt(ts, 10))
	req.Header.Set(HeaderSignature, Signature(key, msgID, ts, payload))
	start := time.Now()
	resp, err := d.client.Do(req)
	res := attemptResult{duration: time.Since(start), err: err}
	metrics.OutboundDuration.Observe(res.duration.Seconds())
	if err != nil {
		res.errText = describe(err, d.client.Timeout)
		return res
	}
	defer resp.Body.Close()
	res.status = resp.StatusCode
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 256))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		res.errText = "receiver answered " + strconv.Itoa(resp.StatusCode)
		if s := printable(snippet); s != "" {
			res.errText += ": " + s
		}
	}
	return res
}

// record logs the attempt and settles or reschedules the delivery, in one
// transaction that only applies if no other run logged this attempt.
func (d *Deliverer) record(ctx context.Context, del models.WebhookDelivery, sub *models.WebhookSubscription, attempt int, res attemptResult) error {
	outcome, status := d.classify(res, attempt)
	metrics.OutboundAttempts.WithLabelValues(outcome).Inc()
	next := time.Time{}
	if status == models.DeliveryPending {
		next = time.Now().Add(d.retry.Delay(attempt))
	}
	applied := false
	err := d.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		applied, err = logAttempt(tx, del, attempt, res, status, next)
		if err != nil || !applied || outcome != outcomeDisabled {
			return err
		}
		reason := fmt.Sprintf("receiver answered 410 Gone at %s", time.Now().UTC().Format(time.RFC3339))
		return tx.Model(&models.WebhookSubscription{}).Where("id = ?", sub.ID).
			Updates(map[string]any{"is_active": false, "disabled_reason": reason, "updated_at": gorm.Expr("now()")}).Error
	})
	if err != nil {
		return fmt.Errorf("webhooks.record: %w", err)
	}
	if outcome == outcomeDisabled && applied {
		d.log.WarnContext(ctx, "webhook subscription disabled: receiver answered 410", "webhook_id", sub.ID)
	}
	if !applied || status != models.DeliveryPending {
		return nil
	}
	del.Attempts, del.NextAttemptAt = attempt, next
	return d.queueNext(ctx, del)
}

// classify turns an attempt into its outcome and the delivery's new status.
func (d *Deliverer) classify(res attemptResult, attempt int) (outcome, status string) {
	switch {
	case res.err == nil && res.status >= 200 && res.status <= 299:
		return outcomeSucceeded, models.DeliverySucceeded
	case res.err == nil && res.status == http.StatusGone:
		return outcomeDisabled, models.DeliveryFailed
	case errors.Is(res.err, ErrBlockedTarget):
		return outcomeBlocked, models.DeliveryFailed
	case attempt >= d.retry.MaxAttempts:
		return outcomeFailed, models.DeliveryFailed
	}
	return outcomeRetry, models.DeliveryPending
}

// logAttempt writes the attempt row and moves the delivery from attempt-1
// to attempt; it reports false when another run got there first.
func logAttempt(tx *gorm.DB, del models.WebhookDelivery, attempt int, res attemptResult, status string, next time.Time) (bool, error) {
	var code *int
	if res.status != 0 {
		code = &res.status
	}
	var errText *string
	if res.errText != "" {
		errText = &res.errText
	}
	changes := map[string]any{
		"attempts": attempt, "status": status, "last_status_code": code, "last_error": errText, "updated_at": gorm.Expr("now()"),
	}
	if !next.IsZero() {
		changes["next_attempt_at"] = next
	}
	if status == models.DeliverySucceeded {
		changes["delivered_at"] = gorm.Expr("now()")
	}
	upd := tx.Model(&models.WebhookDelivery{}).
		Where("id = ? AND attempts = ? AND status = ?", del.ID, attempt-1, models.DeliveryPending).Updates(changes)
	if upd.Error != nil || upd.RowsAffected == 0 {
		return false, upd.Error
	}
	row := models.WebhookDeliveryAttempt{DeliveryID: del.ID, Attempt: attempt, StatusCode: code,
		DurationMS: int(res.duration.Milliseconds()), Error: errText}
	return true, tx.Create(&row).Error
}

// endWithoutAttempt ends a delivery without an HTTP attempt (subscription disabled,
// unusable secret or event), logging why as the attempt.
func (d *Deliverer) endWithoutAttempt(ctx context.Context, del models.WebhookDelivery, attempt int, status, reason string) error {
	err := d.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		_, err := logAttempt(tx, del, attempt, attemptResult{errText: reason}, status, time.Time{})
		return err
	})
	if err != nil {
		return fmt.Errorf("webhooks.settle: %w", err)
	}
	return nil
}

// queueNext queues the delivery's next attempt for its due time.
func (d *Deliverer) queueNext(ctx context.Context, del models.WebhookDelivery) error {
	task, opts := tasks.NewWebhookDeliveryTask(del.ID.String(), del.Attempts+1, del.NextAttemptAt)
	if err := tasks.Enqueue(ctx, d.queue, task, opts...); err != nil {
		// The sweep queues it later; running this task again does too.
		return fmt.Errorf("webhooks.queue_next: %w", err)
	}
	return nil
}

// describe turns a transport error into a short text for the attempt log.
func describe(err error, timeout time.Duration) string {
	var te interface{ Timeout() bool }
	switch {
	case errors.Is(err, ErrBlockedTarget):
		return ErrBlockedTarget.Error()
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &te) && te.Timeout():
		return "no answer within " + timeout.String()
	}
	msg := err.Error()
	if len(msg) > 300 {
		msg = msg[:300]
	}
	return msg
}

// printable keeps the start of a receiver's answer if it is text.
func printable(b []byte) string {
	if !utf8.Valid(b) {
		return ""
	}
	return string(bytes.TrimSpace(b))
}
