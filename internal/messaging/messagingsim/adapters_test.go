package messagingsim_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/messaging/messagingsim"
)

// The real adapters against the simulator: what MSG91 and the Cloud API
// accept is sent and recorded with its text; what they refuse (an SMS
// template whose DLT template id or sender is not the registered one, an
// unknown WhatsApp template, a number not opted in, a wrong credential)
// is ErrRefused or ErrUnavailable as the adapters map the providers'
// answers.
func TestAdaptersAgainstTheSimulator(t *testing.T) {
	sim := messagingsim.New(slog.New(slog.DiscardHandler))
	sim.RequireOptIn, sim.AutoReceipts = true, false
	srv := httptest.NewServer(sim.Handler())
	defer srv.Close()
	client := &http.Client{Timeout: 5 * time.Second}
	sms := messaging.NewMSG91(messaging.MSG91Config{BaseURL: srv.URL, AuthKey: messagingsim.AuthKey}, client)
	wa := messaging.NewCloud(messaging.CloudConfig{BaseURL: srv.URL, Version: messagingsim.APIVersion,
		PhoneNumberID: messagingsim.PhoneNumberID, AccessToken: messagingsim.AccessToken}, client)
	tpl := messaging.DemoTemplates[messaging.EventDelivered]
	ctx := context.Background()
	ok := messaging.Outgoing{Ref: "ref-1", To: "919812345678", Template: tpl.SMSTemplateID, DLTTemplateID: tpl.DLTTemplateID,
		SenderID: tpl.SenderID, Variables: []string{"Asha", "ORD-1"}}

	id, err := sms.Send(ctx, ok)
	if err != nil || id == "" {
		t.Fatalf("sms: %q %v", id, err)
	}
	for name, m := range map[string]messaging.Outgoing{
		"unregistered DLT id": func() messaging.Outgoing { m := ok; m.DLTTemplateID = "1107170000000009999"; return m }(),
		"no DLT id":           func() messaging.Outgoing { m := ok; m.DLTTemplateID = ""; return m }(),
		"another sender":      func() messaging.Outgoing { m := ok; m.SenderID = "OTHERS"; return m }(),
		"unknown template":    func() messaging.Outgoing { m := ok; m.Template = "nope"; return m }(),
	} {
		if _, err := sms.Send(ctx, m); !errors.Is(err, messaging.ErrRefused) {
			t.Errorf("sms %s: %v, want refused", name, err)
		}
	}
	bad := messaging.NewMSG91(messaging.MSG91Config{BaseURL: srv.URL, AuthKey: "wrong"}, client)
	if _, err := bad.Send(ctx, ok); !errors.Is(err, messaging.ErrUnavailable) {
		t.Errorf("sms with a wrong authkey: %v, want unavailable", err)
	}

	w := messaging.Outgoing{Ref: "ref-2", To: "919812345678", Template: tpl.WhatsAppName, Language: tpl.Language, Variables: []string{"Asha", "ORD-1"}}
	if _, err := wa.Send(ctx, w); !errors.Is(err, messaging.ErrRefused) {
		t.Fatalf("whatsapp before the opt-in: %v, want refused", err)
	}
	sim.OptIn("+91 98123 45678")
	if id, err := wa.Send(ctx, w); err != nil || id == "" {
		t.Fatalf("whatsapp: %q %v", id, err)
	}
	w.Template = "not_approved"
	if _, err := wa.Send(ctx, w); !errors.Is(err, messaging.ErrRefused) {
		t.Fatalf("whatsapp with an unknown template: %v, want refused", err)
	}

	recs := sim.Messages("919812345678")
	if len(recs) != 2 || recs[0].Text != "Hi Asha, your order ORD-1 was delivered. - Shop" || recs[0].Ref != "ref-1" ||
		recs[1].Channel != "whatsapp" || recs[1].Text != "Hi Asha, your order ORD-1 was delivered." || recs[1].Ref != "ref-2" {
		t.Fatalf("recorded %+v", recs)
	}
}
