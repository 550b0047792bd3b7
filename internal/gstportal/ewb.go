package gstportal

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The e-way bill system's own API (NIC, ewaybillgst.gov.in; API version
// 1.03), used for an e-way bill whose document has no IRN: a store that
// does not e-invoice, a B2C invoice, a transfer's delivery challan. It is
// a separate system from the IRP, with its own URL, API user, client id
// and public key (docs/DECISIONS.md "The e-way bill API"):
//
//   - auth: POST {GST_EWB_API_URL}/auth with headers client-id,
//     client-secret and Gstin, body {"Data": base64(RSA-PKCS#1 v1.5(e-way
//     bill public key, base64(JSON {action: "ACCESSTOKEN", username,
//     password, app_key})))}; the answer {status: "1", authtoken, sek}: sek
//     is the session key, AES-256-ECB under the app key.
//   - every call: POST {GST_EWB_API_URL}/ewayapi with headers client-id,
//     client-secret, Gstin and authtoken, body {action, data:
//     base64(AES-256-ECB(SEK, JSON))}; the answer {status: "1", data} with
//     data the same encryption of the answer's JSON, or, as NIC's GET APIs
//     answer, data under a random key rek given encrypted under the SEK,
//     with hmac (base64 HMAC-SHA256 under rek of the base64 JSON).
//   - a refusal: {status: "0", error: base64(JSON {errorCodes: "702,"})}.
//     The codes are NIC's published e-way bill error list (EwbErrors).

// Paths of the e-way bill API under GST_EWB_API_URL, and where the
// simulator serves it (GST_EWB_API_URL is then GST_API_URL +
// PathEwbBase).
const (
	PathEwbBase       = "/ewaybillapi/v1.03"
	PathEwbAuth       = "/auth"
	PathEwbAPI        = "/ewayapi"
	ActionAccessToken = "ACCESSTOKEN"
	ActionGenEwayBill = "GENEWAYBILL"
)

// Codes of the e-way bill system's refusals the shop acts on or the
// simulator answers (NIC's list, EwbErrors).
const (
	// EwbInvalidToken: the token is not (or no longer) the system's; the
	// adapter logs in again once.
	EwbInvalidToken = "238"
	// EwbTokenExpired and EwbInvalidTokenOld: the list's other session
	// refusals, treated as 238.
	EwbTokenExpired    = "106"
	EwbInvalidTokenOld = "105"
)

// EwbErrors are the messages of NIC's e-way bill error codes the shop
// meets, as NIC's list words them (the error answer carries codes only).
var EwbErrors = map[string]string{
	"100": "Invalid Json",
	"105": "Invalid Token",
	"106": "Token Expired",
	"108": "Invalid login credentials.",
	"109": "Decryption of data failed",
	"110": "Invalid Client-ID/Client-Secret",
	"201": "Invalid Supply Type",
	"202": "Invalid Sub-supply Type",
	"204": "Invalid Document type",
	"205": "Document type does not match with transaction & Sub trans type",
	"206": "Invaild Invoice Number",
	"207": "Invalid Invoice Date",
	"208": "Invalid Supplier GSTIN",
	"210": "Invalid or Blank Supplier PIN Code",
	"211": "Invalid or Blank Supplier state Code",
	"212": "Invalid Consignee GSTIN",
	"214": "Invalid Consignee PIN Code",
	"215": "Invalid Consignee State Code",
	"216": "Invalid HSN Code",
	"218": "Invalid Tax Rate for Intra State Transaction",
	"219": "Invalid Tax Rate for Inter State Transaction",
	"220": "Invalid Trans mode",
	"221": "Invalid Approximate Distance",
	"222": "Invalid Transporter Id",
	"225": "Invalid Vehicle Number Format",
	"226": "Both Transaction and Vehicle Number Blank",
	"233": "Eway bill does not contains any items",
	"234": "Total amount/Taxable amout is mandatory",
	"238": "Invalid auth token",
	"239": "Invalid action",
	"359": "User GSTIN should match to GSTIN(from) for outward transactions",
	"361": "Invalid Vehicle Type",
	"604": "E-way bill(s) are already generated for the same document number, you cannot generate again on same document number",
	"620": "Total invoice value cannot be less than the sum of total assessible value and tax values",
	"621": "Trans mode is mandatory since vehicle number is present",
	"623": "IGST value is not applicable for Intra State Transaction",
	"624": "SGST/CGST value is not applicable for Inter State Transaction",
	"702": "The distance between the pincodes given is too high",
	"720": "E Way Bill should be generated as part of IRN generation or with reference to IRN in E Invoice System, Since Supplier is enabled for E Invoice.",
	"721": "The distance between the given pincodes are not available in the system. Please provide distance.",
	"820": "You cannot generate e-Waybill with document date earlier than 180 days",
}

// ErrNoEwbAPI is the nic provider asked for an e-way bill without an IRN
// while GST_EWB_API_URL is not set: a configuration to fix, not a portal
// that did not answer.
var ErrNoEwbAPI = errors.New("gstportal: the e-way bill API is not configured (GST_EWB_API_URL)")

// EwbConfig is the e-way bill API's: its base URL (up to the version, e.g.
// https://HOST/ewaybillapi/v1.03), the taxpayer's API user on the e-way
// bill portal and the client id it was given, and the system's public key
// (Key, or KeyURL, the simulator's GET /sim/ewb-key).
type EwbConfig struct {
	URL, User, Password, ClientID, ClientSecret string
	Key                                         *rsa.PublicKey
	KeyURL                                      string
}

// ewbEnvelope is the e-way bill system's answer.
type ewbEnvelope struct {
	Status    json.RawMessage `json:"status"`
	Data      json.RawMessage `json:"data"`
	Rek       string          `json:"rek"`
	Hmac      string          `json:"hmac"`
	Error     json.RawMessage `json:"error"`
	AuthToken string          `json:"authtoken"`
	Sek       string          `json:"sek"`
}

func (e *ewbEnvelope) ok() bool { return strings.Trim(string(e.Status), `"`) == "1" }

func (e *ewbEnvelope) read() bool { return len(e.Status) > 0 }

// refusal reads the error of a status 0 answer: base64 JSON {errorCodes:
// "702,221,"} (a plain JSON object is read too). The message is NIC's
// for each code.
func (e *ewbEnvelope) refusal() *Error {
	var body struct {
		ErrorCodes string `json:"errorCodes"`
		Message    string `json:"message"`
	}
	raw := []byte(e.Error)
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if dec, err := base64.StdEncoding.DecodeString(s); err == nil {
			raw = dec
		} else {
			raw = []byte(s)
		}
	}
	_ = json.Unmarshal(raw, &body)
	var codes, msgs []string
	for _, c := range strings.Split(body.ErrorCodes, ",") {
		if c = strings.TrimSpace(c); c != "" {
			codes = append(codes, c)
			msgs = append(msgs, orDefault(EwbErrors[c], "e-way bill system error "+c))
		}
	}
	if len(codes) == 0 {
		return &Error{Code: "0", Message: orDefault(body.Message, "refused by the e-way bill system")}
	}
	msg := msgs[0]
	for i := 1; i < len(codes); i++ {
		msg += "; " + codes[i] + ": " + msgs[i]
	}
	return &Error{Code: codes[0], Message: msg}
}

func (e *ewbEnvelope) sessionRefused() bool {
	if e.ok() {
		return false
	}
	switch e.refusal().Code {
	case EwbInvalidToken, EwbTokenExpired, EwbInvalidTokenOld:
		return true
	}
	return false
}

// ewbKey is the e-way bill system's public key: the configured one, or
// the simulator's (read once). The caller holds n.mu.
func (n *NIC) ewbKey(ctx context.Context) (*rsa.PublicKey, error) {
	if n.ewbPub != nil {
		return n.ewbPub, nil
	}
	if n.cfg.Ewb.KeyURL == "" {
		return nil, errors.New("gstportal: the e-way bill system's public key (GST_EWB_PUBLIC_KEY) is not set")
	}
	key, err := n.fetchKey(ctx, n.cfg.Ewb.KeyURL)
	if err != nil {
		return nil, err
	}
	n.ewbPub = key
	return key, nil
}

// ewbAuth returns a session of gstin with the e-way bill system, logging
// in (ACCESSTOKEN) when none is kept. Its tokens last 360 minutes.
func (n *NIC) ewbAuth(ctx context.Context, gstin string) (token, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if t := n.ewbTokens[gstin]; t.value != "" && time.Now().Before(t.expires.Add(-5*time.Minute)) {
		return t, nil
	}
	key, err := n.ewbKey(ctx)
	if err != nil {
		return token{}, err
	}
	appKey, err := NewAppKey()
	if err != nil {
		return token{}, err
	}
	plain, _ := json.Marshal(map[string]string{"action": ActionAccessToken, "username": n.cfg.Ewb.User,
		"password": n.cfg.Ewb.Password, "app_key": base64.StdEncoding.EncodeToString(appKey)})
	data, err := EncryptAuth(key, plain)
	if err != nil {
		return token{}, err
	}
	body, _ := json.Marshal(map[string]string{"Data": data})
	var env ewbEnvelope
	if err := n.ewbCall(ctx, "ewb_auth", PathEwbAuth, gstin, "", body, &env); err != nil {
		return token{}, err
	}
	if !env.ok() {
		return token{}, env.refusal()
	}
	if env.AuthToken == "" {
		return token{}, unavailable("ewb_auth", errors.New("no authtoken in the answer"))
	}
	sek, err := DecryptECB(appKey, env.Sek)
	if err != nil || len(sek) != 32 {
		return token{}, unavailable("ewb_auth", errors.New("the session key (sek) does not decrypt with the app key"))
	}
	t := token{value: env.AuthToken, expires: time.Now().Add(6 * time.Hour), sek: sek}
	n.ewbTokens[gstin] = t
	return t, nil
}

func (n *NIC) ewbForget(gstin string, tok token) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ewbTokens[gstin].value == tok.value {
		delete(n.ewbTokens, gstin)
	}
}

// ewbCall posts body to the e-way bill API's path and decodes the
// envelope (exchange).
func (n *NIC) ewbCall(ctx context.Context, op, path, gstin, authToken string, body []byte, out *ewbEnvelope) error {
	u := strings.TrimRight(n.cfg.Ewb.URL, "/") + path
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return unavailable(op, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("client-id", n.cfg.Ewb.ClientID)
	req.Header.Set("client-secret", n.cfg.Ewb.ClientSecret)
	req.Header.Set("Gstin", gstin)
	if authToken != "" {
		req.Header.Set("authtoken", authToken)
	}
	return exchange(n.cfg.Client, op, req, "the e-way bill system", out)
}

// ewbAction sends action with payload (JSON, encrypted under the session
// key) and returns the answer's decrypted JSON. A session the system
// refuses (238) is dropped and the call made once more after a new login:
// the refusal is the session's, not the document's.
func (n *NIC) ewbAction(ctx context.Context, op, gstin, action string, payload any) ([]byte, error) {
	if n.cfg.Ewb.URL == "" {
		return nil, ErrNoEwbAPI
	}
	plain, err := json.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("gstportal.%s: %w", op, err)
	}
	for attempt := 0; ; attempt++ {
		tok, err := n.ewbAuth(ctx, gstin)
		if err != nil {
			return nil, err
		}
		data, err := EncryptECB(tok.sek, plain)
		if err != nil {
			return nil, fmt.Errorf("gstportal.%s: %w", op, err)
		}
		body, _ := json.Marshal(map[string]string{"action": action, "data": data})
		var env ewbEnvelope
		if err := n.ewbCall(ctx, op, PathEwbAPI, gstin, tok.value, body, &env); err != nil {
			return nil, err
		}
		if env.sessionRefused() && attempt == 0 {
			n.ewbForget(gstin, tok)
			continue
		}
		if !env.ok() {
			return nil, env.refusal()
		}
		out, err := decryptEwbData(tok.sek, &env)
		if err != nil {
			return nil, unavailable(op, err)
		}
		return out, nil
	}
}

// DecryptEwbAnswer returns the JSON of body, a successful answer of the
// e-way bill system, with session key sek (decryptEwbData).
func DecryptEwbAnswer(sek, body []byte) ([]byte, error) {
	var env ewbEnvelope
	if err := json.Unmarshal(body, &env); err != nil || !env.ok() {
		return nil, errors.New("not a successful answer of the e-way bill system")
	}
	return decryptEwbData(sek, &env)
}

// decryptEwbData returns the JSON of a successful answer: data under the
// SEK, or under rek (itself under the SEK) with its hmac checked. NIC
// writes the encrypted text as Encrypt(Base64(JSON)); a plaintext that is
// not JSON but base64 of JSON is decoded too.
func decryptEwbData(sek []byte, env *ewbEnvelope) ([]byte, error) {
	var data string
	if err := json.Unmarshal(env.Data, &data); err != nil || data == "" {
		return nil, errors.New("the answer's data is not the encrypted string the session expects")
	}
	key := sek
	if env.Rek != "" {
		rek, err := DecryptECB(sek, env.Rek)
		if err != nil {
			return nil, fmt.Errorf("rek: %w", err)
		}
		key = rek
	}
	plain, err := DecryptECB(key, data)
	if err != nil {
		return nil, err
	}
	if !json.Valid(plain) {
		dec, err := base64.StdEncoding.DecodeString(string(plain))
		if err != nil || !json.Valid(dec) {
			return nil, ErrDecrypt
		}
		plain = dec
	}
	if env.Rek != "" && env.Hmac != "" {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(base64.StdEncoding.EncodeToString(plain)))
		want := base64.StdEncoding.EncodeToString(m.Sum(nil))
		if !hmac.Equal([]byte(want), []byte(env.Hmac)) {
			return nil, errors.New("the answer's hmac does not match its data")
		}
	}
	return plain, nil
}

// EwbAnswer is GENEWAYBILL's answer: the number, when it was generated and
// the end of its validity (EwbLayout, IST), and an alert (the distance the
// system took from the pincodes when none was given).
type EwbAnswer struct {
	EwayBillNo   int64  `json:"ewayBillNo"`
	EwayBillDate string `json:"ewayBillDate"`
	ValidUpto    string `json:"validUpto"`
	Alert        string `json:"alert"`
}

// alertKm reads the distance of an alert ("..., Distance between these two
// pincodes is 656, ").
var alertKm = regexp.MustCompile(`(?i)distance[^0-9]*([0-9]+)`)

// EwayBill generates an e-way bill on the e-way bill system (GENEWAYBILL)
// for a document without an IRN.
func (n *NIC) EwayBill(ctx context.Context, req *EwbRequest) (*EwayBill, error) {
	raw, err := n.ewbAction(ctx, "ewaybill", req.FromGstin, ActionGenEwayBill, req)
	if err != nil {
		return nil, err
	}
	var d EwbAnswer
	if err := json.Unmarshal(raw, &d); err != nil || d.EwayBillNo == 0 {
		return nil, unavailable("ewaybill", fmt.Errorf("no e-way bill in the answer: %v", err))
	}
	out := &EwayBill{Number: d.EwayBillNo, DistanceKm: req.TransDistance}
	var e1, e2 error
	out.Date, e1 = time.ParseInLocation(EwbLayout, d.EwayBillDate, IST)
	out.ValidUntil, e2 = time.ParseInLocation(EwbLayout, d.ValidUpto, IST)
	if e1 != nil || e2 != nil {
		return nil, unavailable("ewaybill", fmt.Errorf("dates %q, %q", d.EwayBillDate, d.ValidUpto))
	}
	if out.DistanceKm == 0 {
		if m := alertKm.FindStringSubmatch(d.Alert); m != nil {
			out.DistanceKm, _ = strconv.Atoi(m[1])
		}
	}
	return out, nil
}
