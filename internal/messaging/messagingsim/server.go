// Package messagingsim is the local stand-in for MSG91 (SMS) and the
// WhatsApp Business Cloud API in one server (`shop messaging-sim`): it
// speaks their send APIs, refuses what they refuse (an SMS whose template
// is not registered with its DLT template id and sender; a WhatsApp
// template that is not approved, or a number that did not opt in when
// RequireOptIn), records what it accepted (GET /sim/messages?to=PHONE) and
// posts delivery receipts and replies to the shop's webhooks as the
// providers do.
package messagingsim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gocommerce/shop/internal/messaging"
	"github.com/google/uuid"
)

// Credentials the simulator accepts (and the shop's simulator providers
// send).
const (
	AuthKey       = "sim-msg91-authkey"
	AccessToken   = "sim-whatsapp-access-token"
	PhoneNumberID = "100000000000001"
	APIVersion    = "v21.0"
)

// Targets are where the simulator posts: MSG91's delivery reports and
// inbound replies (each URL carries the shop's token), the Cloud API's
// webhook and the app secret it signs with.
type Targets struct {
	SMSReceipts     string
	SMSInbound      string
	WhatsAppWebhook string
	AppSecret       string
}

// Record is one message the simulator accepted.
type Record struct {
	Channel   string    `json:"channel"`
	To        string    `json:"to"`
	Template  string    `json:"template"`
	Variables []string  `json:"variables"`
	Text      string    `json:"text"`
	At        time.Time `json:"at"`
	// ID is the simulator's id of it (MSG91's request id, the wamid); Ref
	// is the sender's reference (CRQID, biz_opaque_callback_data).
	ID  string `json:"id"`
	Ref string `json:"ref"`
}

type smsTemplate struct{ DLT, Sender, Text string }
type waTemplate struct{ Language, Text string }

// Server is the simulator.
type Server struct {
	// AutoReceipts posts a delivered receipt for every accepted message.
	AutoReceipts bool
	// RequireOptIn refuses WhatsApp messages to numbers not opted in
	// (POST /sim/whatsapp/opt-ins).
	RequireOptIn bool

	log    *slog.Logger
	client *http.Client
	mu     sync.Mutex
	sms    map[string]smsTemplate
	wa     map[string]waTemplate
	optIns map[string]bool
	sent   []Record
	tg     Targets
	wg     sync.WaitGroup
}

// New returns a simulator that knows the demo templates.
func New(log *slog.Logger) *Server {
	s := &Server{AutoReceipts: true, log: log, client: &http.Client{Timeout: 10 * time.Second},
		sms: map[string]smsTemplate{}, wa: map[string]waTemplate{}, optIns: map[string]bool{}}
	for _, t := range messaging.DemoTemplates {
		s.sms[t.SMSTemplateID] = smsTemplate{DLT: t.DLTTemplateID, Sender: t.SenderID, Text: t.SMSText}
		s.wa[t.WhatsAppName] = waTemplate{Language: t.Language, Text: t.WhatsAppText}
	}
	return s
}

// SetTargets sets where receipts and replies go.
func (s *Server) SetTargets(t Targets) {
	s.mu.Lock()
	s.tg = t
	s.mu.Unlock()
}

// OptIn records that phone opted in to WhatsApp messages.
func (s *Server) OptIn(phone string) {
	s.mu.Lock()
	s.optIns[messaging.Phone(phone)] = true
	s.mu.Unlock()
}

// Wait waits for the receipts and replies being posted.
func (s *Server) Wait() { s.wg.Wait() }

// Messages returns what was accepted for phone (every message for "").
func (s *Server) Messages(phone string) []Record {
	to := messaging.Phone(phone)
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []Record{}
	for _, r := range s.sent {
		if phone == "" || r.To == to {
			out = append(out, r)
		}
	}
	return out
}

// Handler serves the simulator's routes.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+messaging.MSG91Flow, s.flow)
	mux.HandleFunc("POST /{version}/{phoneID}/messages", s.whatsapp)
	mux.HandleFunc("GET /sim/messages", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"data": s.Messages(r.URL.Query().Get("to"))})
	})
	mux.HandleFunc("POST /sim/templates", s.register)
	mux.HandleFunc("POST /sim/whatsapp/opt-ins", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Phone string `json:"phone"`
		}
		if json.NewDecoder(r.Body).Decode(&in) != nil || messaging.Phone(in.Phone) == "" {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "phone is required"})
			return
		}
		s.OptIn(in.Phone)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /sim/receipts", s.receiptOnDemand)
	mux.HandleFunc("POST /sim/inbound", s.inbound)
	return mux
}

// register: POST /sim/templates {channel, template, dltTemplateId,
// senderId, language, text} registers (approves) a template.
func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Channel, Template, DLTTemplateID, SenderID, Language, Text string
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Template == "" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "template is required"})
		return
	}
	s.mu.Lock()
	if in.Channel == messaging.SMS {
		s.sms[in.Template] = smsTemplate{DLT: in.DLTTemplateID, Sender: in.SenderID, Text: in.Text}
	} else {
		s.wa[in.Template] = waTemplate{Language: in.Language, Text: in.Text}
	}
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// flow is MSG91's POST /api/v5/flow.
func (s *Server) flow(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("authkey") != AuthKey {
		writeJSON(w, http.StatusUnauthorized, messaging.MSG91Response{Type: "error", Message: "Authentication failure"})
		return
	}
	var in messaging.MSG91Request
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || len(in.Recipients) == 0 {
		writeJSON(w, http.StatusBadRequest, messaging.MSG91Response{Type: "error", Message: "invalid request body"})
		return
	}
	s.mu.Lock()
	tpl, ok := s.sms[in.TemplateID]
	s.mu.Unlock()
	switch {
	case !ok:
		writeJSON(w, http.StatusOK, messaging.MSG91Response{Type: "error", Message: "Template ID Missing or Invalid Template"})
		return
	case in.DLTTEID == "" || in.DLTTEID != tpl.DLT:
		// Operators drop an SMS whose content template is not the one
		// registered on DLT (TRAI TCCCPR 2018); MSG91 refuses it first.
		writeJSON(w, http.StatusOK, messaging.MSG91Response{Type: "error", Message: "DLT template id mismatch or not registered"})
		return
	case in.Sender != tpl.Sender:
		writeJSON(w, http.StatusOK, messaging.MSG91Response{Type: "error", Message: "Sender ID not approved for this template"})
		return
	}
	var last string
	for _, rc := range in.Recipients {
		to := messaging.Phone(rc["mobiles"])
		if to == "" {
			writeJSON(w, http.StatusOK, messaging.MSG91Response{Type: "error", Message: "Invalid mobile number"})
			return
		}
		var vars []string
		for i := 1; ; i++ {
			v, ok := rc["var"+strconv.Itoa(i)]
			if !ok {
				break
			}
			vars = append(vars, v)
		}
		id := strings.ReplaceAll(uuid.NewString(), "-", "")[:24]
		rec := Record{Channel: messaging.SMS, To: to, Template: in.TemplateID, Variables: nonNil(vars),
			Text: fill(tpl.Text, "{#var#}", vars), At: time.Now().UTC(), ID: id, Ref: in.CRQID}
		s.accept(rec)
		last = id
	}
	writeJSON(w, http.StatusOK, messaging.MSG91Response{Type: "success", Message: last})
}

// whatsapp is the Cloud API's POST /{version}/{phone-number-id}/messages.
func (s *Server) whatsapp(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+AccessToken {
		cloudError(w, http.StatusUnauthorized, 190, "OAuthException", "Invalid OAuth access token.")
		return
	}
	if r.PathValue("phoneID") != PhoneNumberID {
		cloudError(w, http.StatusBadRequest, 100, "OAuthException", "Unsupported post request. Object with ID does not exist.")
		return
	}
	var in messaging.CloudRequest
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.MessagingProduct != "whatsapp" || in.Type != "template" {
		cloudError(w, http.StatusBadRequest, 100, "OAuthException", "(#100) Invalid parameter")
		return
	}
	to := messaging.Phone(in.To)
	s.mu.Lock()
	tpl, ok := s.wa[in.Template.Name]
	opted := s.optIns[to]
	s.mu.Unlock()
	switch {
	case to == "":
		cloudError(w, http.StatusBadRequest, 131009, "OAuthException", "(#131009) Parameter value is not valid")
		return
	case !ok || tpl.Language != in.Template.Language.Code:
		cloudError(w, http.StatusNotFound, 132001, "OAuthException", "(#132001) Template name does not exist in the translation")
		return
	case s.RequireOptIn && !opted:
		cloudError(w, http.StatusBadRequest, 131050, "OAuthException", "(#131050) The recipient has not opted in to messages from this business")
		return
	}
	var vars []string
	for _, c := range in.Template.Components {
		for _, p := range c.Parameters {
			vars = append(vars, p.Text)
		}
	}
	text := tpl.Text
	for i, v := range vars {
		text = strings.ReplaceAll(text, fmt.Sprintf("{{%d}}", i+1), v)
	}
	id := "wamid.sim" + strings.ReplaceAll(uuid.NewString(), "-", "")
	s.accept(Record{Channel: messaging.WhatsApp, To: to, Template: in.Template.Name, Variables: nonNil(vars), Text: text,
		At: time.Now().UTC(), ID: id, Ref: in.BizOpaqueCallbackData})
	writeJSON(w, http.StatusOK, map[string]any{"messaging_product": "whatsapp",
		"contacts": []map[string]string{{"input": in.To, "wa_id": to}}, "messages": []map[string]string{{"id": id}}})
}

// accept records rec and, with AutoReceipts, posts its delivered receipt.
func (s *Server) accept(rec Record) {
	s.mu.Lock()
	s.sent = append(s.sent, rec)
	s.mu.Unlock()
	if s.AutoReceipts {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.postReceipt(rec, messaging.StatusDelivered)
		}()
	}
}

// receiptOnDemand: POST /sim/receipts {id, status} posts the receipt of
// accepted message id (status sent, delivered, read or failed).
func (s *Server) receiptOnDemand(w http.ResponseWriter, r *http.Request) {
	var in struct{ ID, Status string }
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid body"})
		return
	}
	for _, rec := range s.Messages("") {
		if rec.ID == in.ID {
			if err := s.postReceipt(rec, in.Status); err != nil {
				writeJSON(w, http.StatusBadGateway, map[string]string{"error": err.Error()})
				return
			}
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	writeJSON(w, http.StatusNotFound, map[string]string{"error": "no such message"})
}

// postReceipt posts rec's status in its provider's shape.
func (s *Server) postReceipt(rec Record, status string) error {
	s.mu.Lock()
	tg := s.tg
	s.mu.Unlock()
	if rec.Channel == messaging.SMS {
		code := map[string]string{messaging.StatusDelivered: "1", messaging.StatusFailed: "2", messaging.StatusSent: "8"}[status]
		desc := map[string]string{"1": "DELIVERED", "2": "FAILED", "8": "SENT"}[code]
		if tg.SMSReceipts == "" || code == "" {
			return nil
		}
		body, _ := json.Marshal([]messaging.MSG91Report{{RequestID: rec.ID, CRQID: rec.Ref, SenderID: "",
			Report: []messaging.MSG91ReportNumber{{Number: rec.To, Status: code, Desc: desc, Date: time.Now().UTC().Format(time.DateTime)}}}})
		return s.post(tg.SMSReceipts, body, "")
	}
	if tg.WhatsAppWebhook == "" {
		return nil
	}
	body, _ := json.Marshal(messaging.CloudWebhook{Object: "whatsapp_business_account", Entry: []messaging.CloudEntry{{ID: "sim",
		Changes: []messaging.CloudChange{{Field: "messages", Value: messaging.CloudValue{MessagingProduct: "whatsapp",
			Statuses: []messaging.CloudStatus{{ID: rec.ID, Status: status, Timestamp: strconv.FormatInt(time.Now().Unix(), 10),
				RecipientID: rec.To, BizOpaqueCallbackData: rec.Ref}}}}}}}})
	return s.post(tg.WhatsAppWebhook, body, messaging.Sign(tg.AppSecret, body))
}

// inbound: POST /sim/inbound {channel, from, text} posts a customer's
// reply (STOP) to the shop as the provider forwards it.
func (s *Server) inbound(w http.ResponseWriter, r *http.Request) {
	var in struct{ Channel, From, Text string }
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || messaging.Phone(in.From) == "" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "from and text are required"})
		return
	}
	s.mu.Lock()
	tg := s.tg
	s.mu.Unlock()
	from := messaging.Phone(in.From)
	var err error
	if in.Channel == messaging.SMS {
		body, _ := json.Marshal(messaging.MSG91Inbound{Sender: from, Message: in.Text})
		err = s.post(tg.SMSInbound, body, "")
	} else {
		msg := messaging.CloudInbound{From: from, ID: "wamid.in" + uuid.NewString()[:8], Timestamp: strconv.FormatInt(time.Now().Unix(), 10), Type: "text"}
		msg.Text = &struct {
			Body string `json:"body"`
		}{Body: in.Text}
		body, _ := json.Marshal(messaging.CloudWebhook{Object: "whatsapp_business_account", Entry: []messaging.CloudEntry{{ID: "sim",
			Changes: []messaging.CloudChange{{Field: "messages", Value: messaging.CloudValue{MessagingProduct: "whatsapp",
				Messages: []messaging.CloudInbound{msg}}}}}}})
		err = s.post(tg.WhatsAppWebhook, body, messaging.Sign(tg.AppSecret, body))
	}
	if err != nil {
		writeJSON(w, http.StatusBadGateway, map[string]string{"error": err.Error()})
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) post(url string, body []byte, signature string) error {
	if url == "" {
		return fmt.Errorf("messaging-sim: no webhook target set")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if signature != "" {
		req.Header.Set(messaging.SignatureHeader, signature)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		// The target's query holds the shop's token: logged without it.
		s.log.Warn("messaging-sim: webhook not delivered", "url", req.URL.Scheme+"://"+req.URL.Host+req.URL.Path)
		return fmt.Errorf("messaging-sim: webhook %s not delivered", req.URL.Path)
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("messaging-sim: webhook answered %d", resp.StatusCode)
	}
	return nil
}

func fill(text, placeholder string, vars []string) string {
	for _, v := range vars {
		text = strings.Replace(text, placeholder, v, 1)
	}
	return text
}

func nonNil(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}

func cloudError(w http.ResponseWriter, status, code int, typ, msg string) {
	writeJSON(w, status, map[string]any{"error": messaging.CloudError{Message: msg, Type: typ, Code: code}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
