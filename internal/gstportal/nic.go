package gstportal

import (
	"bytes"
	"context"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Paths of the IRP's APIs (e-invoice v1.03, authentication v1.04, e-way
// bill by IRN v1.03) under GST_API_URL. The e-way bill system's own API
// is ewb.go's.
const (
	PathAuth     = "/eivital/v1.04/auth"
	PathInvoice  = "/eicore/v1.03/Invoice"
	PathIRNByDoc = "/eicore/v1.03/Invoice/irnbydocdetails"
	PathEwbByIRN = "/eiewb/v1.03/ewaybill"
)

// NICConfig configures the NIC adapter: the API's base URL and the
// taxpayer's API credentials (GST_API_*), and
// the portal's public key (nil: read from KeyURL, the simulator's).
// EncryptionKey is NIC's public key for the auth payload
// (GST_NIC_ENCRYPTION_KEY); with it, or with EncryptionKeyURL (the
// simulator's), every payload is encrypted as NIC's own API demands
// (nic_crypto.go); with neither, payloads are plain JSON, as a GSP takes
// them.
type NICConfig struct {
	BaseURL, User, Password, ClientID, ClientSecret string
	PublicKey                                       *rsa.PublicKey
	KeyURL                                          string
	EncryptionKey                                   *rsa.PublicKey
	EncryptionKeyURL                                string
	Client                                          *http.Client
	Name                                            string
	// Ewb is the e-way bill system's API (ewb.go), for e-way bills of
	// documents without an IRN; its URL empty, those fail with
	// ErrNoEwbAPI.
	Ewb EwbConfig
}

// NIC speaks the NIC e-invoice and e-way bill APIs: an access token from
// the auth API (kept until it expires), then one call per request.
type NIC struct {
	cfg NICConfig

	mu     sync.Mutex
	tokens map[string]token // by GSTIN
	key    *rsa.PublicKey
	encKey *rsa.PublicKey
	// The e-way bill system's sessions by GSTIN, and its public key.
	ewbTokens map[string]token
	ewbPub    *rsa.PublicKey
}

// NewNIC returns the adapter of cfg.
func NewNIC(cfg NICConfig) *NIC {
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 15 * time.Second}
	}
	if cfg.Name == "" {
		cfg.Name = NICName
	}
	return &NIC{cfg: cfg, key: cfg.PublicKey, encKey: cfg.EncryptionKey, tokens: map[string]token{},
		ewbTokens: map[string]token{}, ewbPub: cfg.Ewb.Key}
}

// Name is nic, or simulator when it speaks to `shop gst-sim`.
func (n *NIC) Name() string { return n.cfg.Name }

// envelope is every NIC answer: Status 1 with Data (a JSON string once
// decrypted), or Status 0 with ErrorDetails and InfoDtls.
type envelope struct {
	Status       json.RawMessage `json:"Status"`
	Data         json.RawMessage `json:"Data"`
	ErrorDetails []struct {
		ErrorCode    string `json:"ErrorCode"`
		ErrorMessage string `json:"ErrorMessage"`
	} `json:"ErrorDetails"`
	InfoDtls []Info `json:"InfoDtls"`
}

// Info is an IRP remark: DUPIRN carries the duplicate's Ack, EWBPPD the
// distance it took from the pincodes.
type Info struct {
	InfCd string          `json:"InfCd"`
	Desc  json.RawMessage `json:"Desc"`
}

func (e *envelope) ok() bool { return strings.Trim(string(e.Status), `"`) == "1" }

func (e *envelope) read() bool { return len(e.Status) > 0 }

// refusal is the portal's error of a Status 0 answer.
func (e *envelope) refusal() *Error {
	out := &Error{Code: "0", Message: "refused"}
	if len(e.ErrorDetails) > 0 {
		out.Code, out.Message = e.ErrorDetails[0].ErrorCode, e.ErrorDetails[0].ErrorMessage
		for _, d := range e.ErrorDetails[1:] {
			out.Message += "; " + d.ErrorCode + ": " + d.ErrorMessage
		}
	}
	for _, in := range e.InfoDtls {
		if in.InfCd == "DUPIRN" {
			var a Ack
			if json.Unmarshal(in.Desc, &a) == nil && a.Irn != "" {
				out.Duplicate = &a
			}
		}
	}
	return out
}

// data decodes the Data of an answer, which the APIs send as a JSON
// string (a plain object is taken too).
func (e *envelope) data(v any) error {
	raw := e.Data
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = []byte(s)
	}
	return json.Unmarshal(raw, v)
}

// call sends one request to the IRP and decodes the envelope (exchange).
func (n *NIC) call(ctx context.Context, op, method, path string, query url.Values, body []byte, gstin, token string, out *envelope) error {
	u := strings.TrimRight(n.cfg.BaseURL, "/") + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(body))
	if err != nil {
		return unavailable(op, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("client_id", n.cfg.ClientID)
	req.Header.Set("client_secret", n.cfg.ClientSecret)
	req.Header.Set("Gstin", gstin)
	req.Header.Set("user_name", n.cfg.User)
	if token != "" {
		req.Header.Set("AuthToken", token)
	}
	return exchange(n.cfg.Client, op, req, "the portal", out)
}

// answer is an envelope of NIC's APIs: whether it was read (its status
// present) and whether it says done.
type answer interface {
	read() bool
	ok() bool
}

// exchange sends req and decodes its answer into out, timing the call by
// its outcome. A transport failure, a 5xx, 429 or 401, or an answer that
// is not an envelope of system (named in the error) is ErrUnavailable.
// Every call has the client's timeout (GST_TIMEOUT).
func exchange(client *http.Client, op string, req *http.Request, system string, out answer) error {
	start := time.Now()
	outcome := "error"
	defer func() { observe(op, outcome, time.Since(start)) }()
	resp, err := client.Do(req)
	if err != nil {
		return unavailable(op, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return unavailable(op, err)
	}
	if resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusUnauthorized {
		return unavailable(op, fmt.Errorf("status %d", resp.StatusCode))
	}
	if err := json.Unmarshal(raw, out); err != nil || !out.read() {
		return unavailable(op, fmt.Errorf("status %d: not an answer of %s", resp.StatusCode, system))
	}
	outcome = "ok"
	if !out.ok() {
		outcome = "refused"
	}
	return nil
}

// CodeInvalidToken is the portal's refusal of an access token it no
// longer holds (expired early, replaced by another auth, or a simulator
// restarted).
const CodeInvalidToken = "1005"

// authed sends an authenticated request, its body and its answer's Data
// encrypted with the session key when the session has one. A token the
// portal refuses (1005) is forgotten and the request sent once more with a
// new one: the refusal is the session's, not the document's, and must not
// fail the document.
func (n *NIC) authed(ctx context.Context, op, gstin, method, path string, query url.Values, body any) (*envelope, error) {
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return nil, fmt.Errorf("gstportal.%s: %w", op, err)
		}
	}
	for attempt := 0; ; attempt++ {
		tok, err := n.auth(ctx, gstin)
		if err != nil {
			return nil, err
		}
		env, err := n.send(ctx, op, gstin, method, path, query, raw, tok)
		if err != nil || env.ok() || attempt > 0 || len(env.ErrorDetails) == 0 || env.ErrorDetails[0].ErrorCode != CodeInvalidToken {
			return env, err
		}
		n.forget(gstin, tok)
	}
}

// send makes one authenticated call with tok, encrypting raw and
// decrypting the answer's Data when tok has a session key.
func (n *NIC) send(ctx context.Context, op, gstin, method, path string, query url.Values, raw []byte, tok token) (*envelope, error) {
	if tok.sek != nil && raw != nil {
		data, err := EncryptECB(tok.sek, raw)
		if err != nil {
			return nil, fmt.Errorf("gstportal.%s: %w", op, err)
		}
		raw, _ = json.Marshal(map[string]string{"Data": data})
	}
	var env envelope
	if err := n.call(ctx, op, method, path, query, raw, gstin, tok.value, &env); err != nil {
		return nil, err
	}
	if tok.sek != nil && env.ok() {
		var data string
		if err := json.Unmarshal(env.Data, &data); err != nil {
			return nil, unavailable(op, errors.New("the answer's Data is not the encrypted string the session expects"))
		}
		plain, err := DecryptECB(tok.sek, data)
		if err != nil {
			return nil, unavailable(op, err)
		}
		env.Data = plain
	}
	return &env, nil
}

// GenerateIRN posts inv to the IRP (Generate IRN).
func (n *NIC) GenerateIRN(ctx context.Context, inv *Invoice) (*IRN, error) {
	env, err := n.authed(ctx, "generate_irn", inv.SellerDtls.Gstin, http.MethodPost, PathInvoice, nil, inv)
	if err != nil {
		return nil, err
	}
	return irnOf(env, "generate_irn")
}

// IRNByDocument asks the IRP for the e-invoice of a document (Get IRN by
// document details).
func (n *NIC) IRNByDocument(ctx context.Context, gstin, typ, no, date string) (*IRN, error) {
	q := url.Values{"doctype": {typ}, "docnum": {no}, "docdate": {date}}
	env, err := n.authed(ctx, "irn_by_document", gstin, http.MethodGet, PathIRNByDoc, q, nil)
	if err != nil {
		return nil, err
	}
	return irnOf(env, "irn_by_document")
}

func irnOf(env *envelope, op string) (*IRN, error) {
	if !env.ok() {
		return nil, env.refusal()
	}
	var out IRN
	if err := env.data(&out); err != nil || out.Irn == "" {
		return nil, unavailable(op, fmt.Errorf("no IRN in the answer: %v", err))
	}
	return &out, nil
}

// ppd reads the distance of an EWBPPD remark ("Pin-Pin calc distance: 2467KM").
var ppd = regexp.MustCompile(`([0-9]+)\s*KM`)

// EwayBillByIRN generates the e-way bill of e-invoice irn (Generate e-way
// bill by IRN).
func (n *NIC) EwayBillByIRN(ctx context.Context, gstin, irn string, t Transport) (*EwayBill, error) {
	body := EwbByIRN{Irn: irn, Distance: t.DistanceKm, TransId: t.TransporterID}
	if t.VehicleNumber != "" {
		body.TransMode, body.VehNo, body.VehType = "1", t.VehicleNumber, "R"
	}
	env, err := n.authed(ctx, "ewaybill_by_irn", gstin, http.MethodPost, PathEwbByIRN, nil, body)
	if err != nil {
		return nil, err
	}
	if !env.ok() {
		return nil, env.refusal()
	}
	var d struct {
		EwbNo        int64  `json:"EwbNo"`
		EwbDt        string `json:"EwbDt"`
		EwbValidTill string `json:"EwbValidTill"`
	}
	if err := env.data(&d); err != nil || d.EwbNo == 0 {
		return nil, unavailable("ewaybill_by_irn", fmt.Errorf("no e-way bill in the answer: %v", err))
	}
	out := &EwayBill{Number: d.EwbNo, DistanceKm: t.DistanceKm}
	var e1, e2 error
	out.Date, e1 = time.ParseInLocation(AckLayout, d.EwbDt, IST)
	out.ValidUntil, e2 = time.ParseInLocation(AckLayout, d.EwbValidTill, IST)
	if e1 != nil || e2 != nil {
		return nil, unavailable("ewaybill_by_irn", fmt.Errorf("dates %q, %q", d.EwbDt, d.EwbValidTill))
	}
	for _, in := range env.InfoDtls {
		var desc string
		if in.InfCd == "EWBPPD" && json.Unmarshal(in.Desc, &desc) == nil {
			if m := ppd.FindStringSubmatch(desc); m != nil {
				out.DistanceKm, _ = strconv.Atoi(m[1])
			}
		}
	}
	return out, nil
}
