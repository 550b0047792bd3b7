package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/messaging/messagingsim"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

// Customer messages (docs/DECISIONS.md "Customer messages and COD
// confirmation"): the simulator the worker sends SMS to, and the figures
// of the worker's send rate.
const (
	messagesName = "worker: messages sent to the simulator"
	// benchCustomerSecret is CUSTOMER_JWT_SECRET of the bench's processes,
	// which keys the COD codes' hashes.
	benchCustomerSecret = "bench-customer-jwt-secret-0123456789abcd"
	benchOTP            = "123456"
	messagesToSend      = 5000
)

// startMessagingSim runs the messaging simulator in this process (no
// receipts: the run measures sends), for the processes' SMS_PROVIDER.
func (b *bench) startMessagingSim() error {
	sim := messagingsim.New(slog.New(slog.DiscardHandler))
	sim.AutoReceipts = false
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: sim.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	b.sim, b.simURL = sim, "http://"+ln.Addr().String()
	return nil
}

// messagingEnv is the processes' message configuration.
func (b *bench) messagingEnv() []string {
	if b.simURL == "" {
		return nil
	}
	return []string{"SMS_PROVIDER=simulator", "MESSAGING_SIM_URL=" + b.simURL, "SMS_WEBHOOK_TOKEN=bench-sms-webhook-token-0123456789"}
}

// prepareOTPs gives each phone of carts (as b.checkout numbers them) the
// code benchOTP, as POST /cart/cod-otp would have (without sending it).
func (b *bench) prepareOTPs(carts []string) error {
	expires := time.Now().Add(time.Hour)
	for i := range carts {
		phone := messaging.Phone(fmt.Sprintf("98%08d", i))
		if err := b.db.Exec(`INSERT INTO cod_otps (phone, code_hash, expires_at) VALUES (?, ?, ?)
			ON CONFLICT (phone) DO UPDATE SET code_hash = EXCLUDED.code_hash, expires_at = EXCLUDED.expires_at, tries = 0, used_at = NULL`,
			phone, cod.OTPHash([]byte(benchCustomerSecret), phone, benchOTP), expires).Error; err != nil {
			return err
		}
	}
	return nil
}

// measureMessageSends writes messagesToSend pending SMS rows, queues their
// sends as the event fan-out does, and measures how fast the worker hands
// them to the simulator and marks them sent.
func (b *bench) measureMessageSends(ctx context.Context) error {
	tpl := messaging.DemoTemplates[messaging.EventDelivered]
	run := uuid.NewString()[:8]
	ids := make([]string, messagesToSend)
	for start := 0; start < messagesToSend; start += 500 {
		var rows []string
		var args []any
		for i := start; i < start+500 && i < messagesToSend; i++ {
			ids[i] = uuid.NewString()
			rows = append(rows, "(?, ?, 'delivered', 'sms', ?, ?, ?, ?, ?::jsonb)")
			args = append(args, ids[i], fmt.Sprintf("bench:%s:%d", run, i), fmt.Sprintf("91970%07d", i), tpl.SMSTemplateID,
				tpl.SenderID, tpl.DLTTemplateID, `["Bench","ORD-1"]`)
		}
		if err := b.db.Exec(`INSERT INTO messages (id, dedupe_key, event, channel, to_phone, template, sender_id, dlt_template_id, variables)
			VALUES `+joinComma(rows), args...).Error; err != nil {
			return err
		}
	}
	opt, err := asynq.ParseRedisURI(b.redisURL)
	if err != nil {
		return err
	}
	q := asynq.NewClient(opt)
	defer q.Close()
	startAt := time.Now()
	for _, id := range ids {
		task, opts := tasks.NewMessageSendTask(id)
		if err := tasks.Enqueue(ctx, q, task, opts...); err != nil {
			return err
		}
	}
	deadline := startAt.Add(5 * time.Minute)
	var sent int64
	for {
		if err := b.db.Raw(`SELECT count(*) FROM messages WHERE dedupe_key LIKE ? AND status = 'sent'`, "bench:"+run+":%").Scan(&sent).Error; err != nil {
			return err
		}
		if sent == messagesToSend || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	elapsed := time.Since(startAt)
	if sent != messagesToSend {
		return fmt.Errorf("%s: %d of %d sent in %s", messagesName, sent, messagesToSend, elapsed)
	}
	if got := len(b.sim.Messages("")); got < messagesToSend {
		return fmt.Errorf("%s: the simulator recorded %d of %d", messagesName, got, messagesToSend)
	}
	b.results = append(b.results, Result{Name: messagesName, Connections: 0, RPS: float64(sent) / elapsed.Seconds(),
		Requests: int(sent), Runtime: elapsed})
	b.notes = append(b.notes, fmt.Sprintf("%s: %d SMS queued at once, all sent in %s (%.0f/s; target ≥ 500/s)",
		messagesName, sent, elapsed.Round(time.Millisecond), float64(sent)/elapsed.Seconds()))
	return nil
}

func joinComma(parts []string) string {
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += ", "
		}
		out += p
	}
	return out
}
