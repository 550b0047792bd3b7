package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/webhooks"
)

func TestReceiverChecksTheSignature(t *testing.T) {
	secret := webhooks.NewSecret()
	key, err := webhooks.SecretKey(secret)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	h := handler(key, &out)
	body := []byte(`{"id":"e1","type":"webhook.test","createdAt":"2026-11-26T00:00:00Z","data":{}}`)
	send := func(sig string, at time.Time) int {
		r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		r.Header.Set("webhook-id", "msg_1")
		r.Header.Set("webhook-timestamp", strconv.FormatInt(at.Unix(), 10))
		r.Header.Set("webhook-signature", sig)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	now := time.Now()
	good := webhooks.Signature(key, "msg_1", now.Unix(), body)
	if code := send("v1,bm9wZQ== "+good, now); code != http.StatusNoContent || !strings.Contains(out.String(), `"type":"webhook.test"`) {
		t.Fatalf("a signed delivery: %d, printed %q", code, out.String())
	}
	otherKey, _ := webhooks.SecretKey(webhooks.NewSecret())
	if code := send(webhooks.Signature(otherKey, "msg_1", now.Unix(), body), now); code != http.StatusUnauthorized {
		t.Fatalf("another secret's signature: %d, want 401", code)
	}
	old := now.Add(-10 * time.Minute)
	if code := send(webhooks.Signature(key, "msg_1", old.Unix(), body), old); code != http.StatusUnauthorized {
		t.Fatalf("a replay from 10 minutes ago: %d, want 401", code)
	}
}
