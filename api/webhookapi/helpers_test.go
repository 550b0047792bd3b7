package webhookapi_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/internal/webhooks"
	"github.com/gocommerce/shop/models"
)

// received is one request a receiver got.
type received struct {
	Header http.Header
	Body   []byte
}

// receiver is an httptest endpoint answering the statuses of answer(n) for
// its n-th request (1-based).
type receiver struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []received
}

func newReceiver(t *testing.T, answer func(n int, w http.ResponseWriter)) *receiver {
	t.Helper()
	r := &receiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.reqs = append(r.reqs, received{Header: req.Header.Clone(), Body: b})
		n := len(r.reqs)
		r.mu.Unlock()
		answer(n, w)
	}))
	t.Cleanup(r.Close)
	return r
}

func statuses(codes ...int) func(int, http.ResponseWriter) {
	return func(n int, w http.ResponseWriter) {
		w.WriteHeader(codes[min(n, len(codes))-1])
	}
}

func (r *receiver) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.reqs...)
}

// fastRetry makes attempts follow each other within milliseconds for the
// apps built after it, until the test ends.
func fastRetry(t *testing.T, maxAttempts int) {
	t.Helper()
	saved := webhooks.DefaultRetry
	webhooks.DefaultRetry = webhooks.RetryPolicy{Base: 20 * time.Millisecond, Cap: 100 * time.Millisecond, MaxAttempts: maxAttempts}
	t.Cleanup(func() { webhooks.DefaultRetry = saved })
}

// app runs the API and worker with httptest receivers (loopback) allowed.
func app(t *testing.T, opts ...testkit.Option) *testkit.App {
	t.Helper()
	opts = append([]testkit.Option{testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
		c.WebhookAllowPrivateTargets = true
	})}, opts...)
	return testkit.MustApp(t, opts...)
}

// verify checks a delivery the way a receiver following the Standard
// Webhooks specification does, written here independently of the sender:
// key = base64 of the secret after whsec_, signed content =
// "<webhook-id>.<webhook-timestamp>.<body>", header = space-separated
// "v1,<base64 HMAC-SHA256>" entries, timestamp within 5 minutes.
func verify(t *testing.T, secret string, r received) {
	t.Helper()
	id, ts, sigs := r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp"), r.Header.Get("webhook-signature")
	if id == "" || ts == "" || sigs == "" {
		t.Fatalf("missing Standard Webhooks headers: %v", r.Header)
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || time.Since(time.Unix(sec, 0)).Abs() > 5*time.Minute {
		t.Fatalf("webhook-timestamp %q", ts)
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		t.Fatal(err)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "." + string(r.Body)))
	want := base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, s := range strings.Split(sigs, " ") {
		if v, sig, ok := strings.Cut(s, ","); ok && v == "v1" && hmac.Equal([]byte(sig), []byte(want)) {
			return
		}
	}
	t.Fatalf("signature %q does not verify", sigs)
}

// subscription is the API's subscription body.
type subscription struct {
	ID             string   `json:"id"`
	URL            string   `json:"url"`
	Events         []string `json:"events"`
	Description    string   `json:"description"`
	IsActive       bool     `json:"isActive"`
	DisabledReason *string  `json:"disabledReason"`
	Secret         string   `json:"secret"`
}

type attempt struct {
	Attempt    int     `json:"attempt"`
	StatusCode *int    `json:"statusCode"`
	DurationMS int     `json:"durationMs"`
	Error      *string `json:"error"`
}

type delivery struct {
	ID           string    `json:"id"`
	EventType    string    `json:"eventType"`
	Status       string    `json:"status"`
	AttemptCount int       `json:"attemptCount"`
	Attempts     []attempt `json:"attempts"`
}

func create(t *testing.T, a *testkit.App, token string, body map[string]any) subscription {
	t.Helper()
	var s subscription
	a.Do(t, "POST", "/api/v1/admin/webhooks", testkit.Req{Token: token, Body: body}).Expect(t, 201).JSON(t, &s)
	return s
}

func deliveries(t *testing.T, a *testkit.App, token, webhookID string) []delivery {
	t.Helper()
	var page struct {
		Data []delivery `json:"data"`
	}
	a.Do(t, "GET", "/api/v1/admin/webhooks/"+webhookID+"/deliveries", testkit.Req{Token: token}).Expect(t, 200).JSON(t, &page)
	return page.Data
}

// settled waits until the webhook's newest delivery is no longer pending
// (polling the database: the API is rate limited) and returns it as the API
// shows it.
func settled(t *testing.T, a *testkit.App, token, webhookID string) delivery {
	t.Helper()
	testkit.Eventually(t, 20*time.Second, "the delivery to settle", func() bool {
		var d models.WebhookDelivery
		err := a.DB.Where("subscription_id = ?", webhookID).Order("created_at DESC").Take(&d).Error
		return err == nil && d.Status != models.DeliveryPending
	})
	return deliveries(t, a, token, webhookID)[0]
}
