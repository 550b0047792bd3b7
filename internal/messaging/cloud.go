package messaging

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// CloudRequest is the body of POST /{version}/{phone-number-id}/messages of
// the WhatsApp Business Cloud API for a template message.
type CloudRequest struct {
	MessagingProduct string        `json:"messaging_product"`
	RecipientType    string        `json:"recipient_type"`
	To               string        `json:"to"`
	Type             string        `json:"type"`
	Template         CloudTemplate `json:"template"`
	// BizOpaqueCallbackData comes back in the message's status webhooks.
	BizOpaqueCallbackData string `json:"biz_opaque_callback_data,omitempty"`
}

// CloudTemplate names an approved template, its language and the
// parameters of its components.
type CloudTemplate struct {
	Name       string           `json:"name"`
	Language   CloudLanguage    `json:"language"`
	Components []CloudComponent `json:"components,omitempty"`
}

// CloudLanguage is a template's language.
type CloudLanguage struct {
	Code string `json:"code"`
}

// CloudComponent is a template component's parameters (type "body").
type CloudComponent struct {
	Type       string           `json:"type"`
	Parameters []CloudParameter `json:"parameters"`
}

// CloudParameter is one text parameter.
type CloudParameter struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// CloudResponse is the Cloud API's answer to a send: the message's id
// (wamid...) or the error.
type CloudResponse struct {
	Messages []struct {
		ID string `json:"id"`
	} `json:"messages"`
	Error *CloudError `json:"error,omitempty"`
}

// CloudError is the Graph API's error object (e.g. code 132001: the
// template does not exist; 131026: the message is undeliverable).
type CloudError struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Code    int    `json:"code"`
}

// CloudConfig locates the WhatsApp business number: BaseURL
// (https://graph.facebook.com, or the simulator), API version (v21.0),
// phone number id and the system user's access token.
type CloudConfig struct {
	BaseURL       string
	Version       string
	PhoneNumberID string
	AccessToken   string
}

type cloud struct {
	cfg    CloudConfig
	client *http.Client
}

// NewCloud returns the WhatsApp provider speaking the Cloud API through
// client (which carries the timeout).
func NewCloud(cfg CloudConfig, client *http.Client) Provider {
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return &cloud{cfg: cfg, client: client}
}

func (p *cloud) Channel() string { return WhatsApp }

// Send posts one template message. A 4xx other than 401, 408 and 429 is
// ErrRefused (unknown template, parameters that do not match, a number that
// cannot receive it); the rest is ErrUnavailable.
func (p *cloud) Send(ctx context.Context, m Outgoing) (string, error) {
	params := make([]CloudParameter, len(m.Variables))
	for i, v := range m.Variables {
		params[i] = CloudParameter{Type: "text", Text: v}
	}
	tpl := CloudTemplate{Name: m.Template, Language: CloudLanguage{Code: m.Language}}
	if len(params) > 0 {
		tpl.Components = []CloudComponent{{Type: "body", Parameters: params}}
	}
	body, err := json.Marshal(CloudRequest{MessagingProduct: "whatsapp", RecipientType: "individual", To: m.To,
		Type: "template", Template: tpl, BizOpaqueCallbackData: m.Ref})
	if err != nil {
		return "", err
	}
	url := fmt.Sprintf("%s/%s/%s/messages", p.cfg.BaseURL, p.cfg.Version, p.cfg.PhoneNumberID)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("whatsapp: %w: %v", ErrUnavailable, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+p.cfg.AccessToken)
	resp, err := p.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("whatsapp: %w: %v", ErrUnavailable, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var out CloudResponse
	jsonErr := json.Unmarshal(raw, &out)
	switch {
	case resp.StatusCode == http.StatusOK && jsonErr == nil && len(out.Messages) == 1 && out.Messages[0].ID != "":
		return out.Messages[0].ID, nil
	case resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusUnauthorized &&
		resp.StatusCode != http.StatusRequestTimeout && resp.StatusCode != http.StatusTooManyRequests:
		reason := fmt.Sprintf("status %d", resp.StatusCode)
		if out.Error != nil {
			reason = fmt.Sprintf("(#%d) %s", out.Error.Code, out.Error.Message)
		}
		return "", fmt.Errorf("whatsapp: %w: %s", ErrRefused, reason)
	}
	return "", fmt.Errorf("whatsapp: %w: status %d", ErrUnavailable, resp.StatusCode)
}
