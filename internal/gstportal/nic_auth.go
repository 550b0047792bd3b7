package gstportal

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// The NIC adapter's session: the access token of each GSTIN and, with
// NIC's payload encryption, its session key; and the portal's keys.

// token is an access token of one GSTIN, when it expires and, when the
// payloads are encrypted, the session's key (SEK). Neither is ever logged.
type token struct {
	value   string
	expires time.Time
	sek     []byte
}

// encrypted reports whether payloads are encrypted (NIC directly).
func (n *NIC) encrypted() bool { return n.cfg.EncryptionKey != nil || n.cfg.EncryptionKeyURL != "" }

// auth returns a valid access token of gstin, asking for one when none
// is kept.
func (n *NIC) auth(ctx context.Context, gstin string) (token, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if t := n.tokens[gstin]; t.value != "" && time.Now().Before(t.expires.Add(-5*time.Minute)) {
		return t, nil
	}
	creds := map[string]any{"UserName": n.cfg.User, "Password": n.cfg.Password, "ForceRefreshAccessToken": false}
	var appKey []byte
	if n.encrypted() {
		key, err := n.encryptionKey(ctx)
		if err != nil {
			return token{}, err
		}
		if appKey, err = NewAppKey(); err != nil {
			return token{}, err
		}
		creds["AppKey"] = base64.StdEncoding.EncodeToString(appKey)
		plain, _ := json.Marshal(creds)
		data, err := EncryptAuth(key, plain)
		if err != nil {
			return token{}, err
		}
		creds = map[string]any{"Data": data}
	}
	body, _ := json.Marshal(creds)
	var env envelope
	if err := n.call(ctx, "auth", http.MethodPost, PathAuth, nil, body, gstin, "", &env); err != nil {
		return token{}, err
	}
	if !env.ok() {
		return token{}, env.refusal()
	}
	var d struct {
		AuthToken   string `json:"AuthToken"`
		TokenExpiry string `json:"TokenExpiry"`
		Sek         string `json:"Sek"`
	}
	if err := env.data(&d); err != nil || d.AuthToken == "" {
		return token{}, unavailable("auth", fmt.Errorf("no token in the answer: %v", err))
	}
	t := token{value: d.AuthToken, expires: time.Now().Add(time.Hour)}
	if at, err := time.ParseInLocation(AckLayout, d.TokenExpiry, IST); err == nil {
		t.expires = at
	}
	if appKey != nil {
		sek, err := DecryptECB(appKey, d.Sek)
		if err != nil || len(sek) != 32 {
			return token{}, unavailable("auth", errors.New("the session key (Sek) does not decrypt with the app key"))
		}
		t.sek = sek
	}
	n.tokens[gstin] = t
	return t, nil
}

// forget drops gstin's token tok (the portal refused it), unless another
// call has already replaced it.
func (n *NIC) forget(gstin string, tok token) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.tokens[gstin].value == tok.value {
		delete(n.tokens, gstin)
	}
}

// PublicKey returns the portal's signing key: the configured one, or the
// simulator's GET /sim/key (read once).
func (n *NIC) PublicKey(ctx context.Context) (*rsa.PublicKey, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.key != nil {
		return n.key, nil
	}
	if n.cfg.KeyURL == "" {
		return nil, errors.New("gstportal: GST_IRP_PUBLIC_KEY is not set")
	}
	key, err := n.fetchKey(ctx, n.cfg.KeyURL)
	if err != nil {
		return nil, err
	}
	n.key = key
	return key, nil
}

// encryptionKey is NIC's public key for the auth payload: the configured
// one, or the simulator's GET /sim/nic-key (read once). The caller holds
// n.mu.
func (n *NIC) encryptionKey(ctx context.Context) (*rsa.PublicKey, error) {
	if n.encKey != nil {
		return n.encKey, nil
	}
	key, err := n.fetchKey(ctx, n.cfg.EncryptionKeyURL)
	if err != nil {
		return nil, err
	}
	n.encKey = key
	return key, nil
}

// fetchKey reads a PEM public key at u.
func (n *NIC) fetchKey(ctx context.Context, u string) (*rsa.PublicKey, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, unavailable("key", err)
	}
	resp, err := n.cfg.Client.Do(req)
	if err != nil {
		return nil, unavailable("key", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil, unavailable("key", fmt.Errorf("status %d: %v", resp.StatusCode, err))
	}
	key, err := ParsePublicKey(raw)
	if err != nil {
		return nil, unavailable("key", err)
	}
	return key, nil
}

// ParsePublicKey reads an RSA public key in PEM (PKIX "PUBLIC KEY", or a
// certificate, as NIC publishes it).
func ParsePublicKey(pemBytes []byte) (*rsa.PublicKey, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return nil, errors.New("gstportal: not a PEM public key")
	}
	var pub any
	var err error
	switch block.Type {
	case "CERTIFICATE":
		var cert *x509.Certificate
		if cert, err = x509.ParseCertificate(block.Bytes); err == nil {
			pub = cert.PublicKey
		}
	default:
		pub, err = x509.ParsePKIXPublicKey(block.Bytes)
	}
	if err != nil {
		return nil, fmt.Errorf("gstportal: public key: %w", err)
	}
	key, ok := pub.(*rsa.PublicKey)
	if !ok {
		return nil, errors.New("gstportal: the public key is not RSA")
	}
	return key, nil
}
