package messaging

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// MSG91Flow is MSG91's Flow (SMS) API path; MSG91Config.BaseURL precedes it.
const MSG91Flow = "/api/v5/flow"

// MSG91Request is the body of POST /api/v5/flow: the MSG91 template (mapped
// at MSG91 to its DLT template and sender), the sender id, the DLT template
// id, our reference (CRQID, echoed in the delivery reports) and one
// recipient with the template's variables var1, var2, ...
type MSG91Request struct {
	TemplateID string              `json:"template_id"`
	Sender     string              `json:"sender"`
	ShortURL   string              `json:"short_url"`
	DLTTEID    string              `json:"DLT_TE_ID"`
	CRQID      string              `json:"CRQID"`
	Recipients []map[string]string `json:"recipients"`
}

// MSG91Response is MSG91's answer: type "success" with the request id in
// message, or type "error" with the reason.
type MSG91Response struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// MSG91Config locates the account: BaseURL (https://control.msg91.com, or
// the simulator) and the authkey header.
type MSG91Config struct {
	BaseURL string
	AuthKey string
}

type msg91 struct {
	cfg    MSG91Config
	client *http.Client
}

// NewMSG91 returns the SMS provider speaking MSG91's Flow API through
// client (which carries the timeout).
func NewMSG91(cfg MSG91Config, client *http.Client) Provider {
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return &msg91{cfg: cfg, client: client}
}

func (p *msg91) Channel() string { return SMS }

// Send posts one flow request. MSG91 answers 200 with type "error" for a
// refused request (unknown template, DLT mismatch, bad number), which is
// ErrRefused; 401 (a wrong authkey), 429 and 5xx are ErrUnavailable.
func (p *msg91) Send(ctx context.Context, m Outgoing) (string, error) {
	recipient := map[string]string{"mobiles": m.To}
	for i, v := range m.Variables {
		recipient["var"+strconv.Itoa(i+1)] = v
	}
	body, err := json.Marshal(MSG91Request{TemplateID: m.Template, Sender: m.SenderID, ShortURL: "0",
		DLTTEID: m.DLTTemplateID, CRQID: m.Ref, Recipients: []map[string]string{recipient}})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.cfg.BaseURL+MSG91Flow, bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("msg91: %w: %v", ErrUnavailable, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("authkey", p.cfg.AuthKey)
	resp, err := p.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("msg91: %w: %v", ErrUnavailable, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var out MSG91Response
	jsonErr := json.Unmarshal(raw, &out)
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return "", fmt.Errorf("msg91: %w: status %d", ErrUnavailable, resp.StatusCode)
	case jsonErr != nil:
		return "", fmt.Errorf("msg91: %w: status %d, unreadable answer", ErrUnavailable, resp.StatusCode)
	case out.Type == "success" && out.Message != "":
		return out.Message, nil
	}
	return "", fmt.Errorf("msg91: %w: %s", ErrRefused, out.Message)
}
