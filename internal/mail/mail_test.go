package mail

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

// Without SMTP_URL a claim link reaches the log in development only.
func TestLogSenderWithholdsSecretsOutsideDev(t *testing.T) {
	for _, tc := range []struct {
		name    string
		dev     bool
		visible bool
	}{{"production", false, false}, {"development", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			s, err := New("", "Shop <no-reply@example.com>", slog.New(slog.NewTextHandler(&buf, nil)), tc.dev)
			if err != nil {
				t.Fatal(err)
			}
			s.Send(context.Background(), Message{To: "a@example.com", Subject: "Claim", Body: "token=SECRET123", Secret: true})
			s.Send(context.Background(), Message{To: "a@example.com", Subject: "Order", Body: "order ORD-000001"})
			out := buf.String()
			if strings.Contains(out, "SECRET123") != tc.visible {
				t.Fatalf("secret visible=%v in %q", !tc.visible, out)
			}
			if !strings.Contains(out, "ORD-000001") {
				t.Fatalf("ordinary body missing: %q", out)
			}
		})
	}
}

func TestNewParsesSMTPURL(t *testing.T) {
	s, err := New("smtps://user:pa%40ss@mail.example.com", "Shop <a@example.com>", slog.Default(), false)
	if err != nil {
		t.Fatal(err)
	}
	if sm, ok := s.(skipNoRecipient).Sender.(*SMTPSender); !ok || sm.host != "mail.example.com" {
		t.Fatalf("sender %#v", s)
	}
	if _, err := New("smtp://host:notaport", "a@example.com", slog.Default(), false); err == nil {
		t.Fatal("bad port accepted")
	}
}
