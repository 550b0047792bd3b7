// Package gstsim is a local Invoice Registration Portal and e-way bill
// system: `shop gst-sim` runs it, tests start it in-process. It speaks the
// NIC APIs' shapes (package gstportal), checks every e-invoice against the
// published schema 1.1 (schema/einvoice-1.1.json) and the GSTIN check
// character, gives the IRN as the IRP computes it, signs SignedInvoice and
// SignedQRCode RS256 with a key it makes at start (GET /sim/key serves the
// public half) and answers the IRP's error codes, duplicate IRN included.
// A session authenticated with NIC's payload encryption (an auth whose
// payload is encrypted with the key GET /sim/nic-key serves: a second key
// pair, as NIC's encryption key is not its signing key) gets a session key
// (SEK) and must encrypt every payload with it, as NIC demands; the answers
// come back encrypted the same way (gstportal/nic_crypto.go). Options can
// require it of every session, and can name the GSTINs whose AATO is ₹10
// crore or more, whose documents older than the reporting window it
// refuses. What it registers is kept in memory.
package gstsim

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/gocommerce/shop/internal/gstportal"
)

// Credentials are the API credentials the simulator accepts; empty fields
// accept anything but an empty value.
type Credentials struct {
	User, Password, ClientID, ClientSecret string
}

// Options are how the simulator behaves beyond the API's shapes.
type Options struct {
	// RequireEncryption refuses a plain (GSP-shaped) auth: every session
	// must use NIC's payload encryption.
	RequireEncryption bool
	// LargeTaxpayers are the GSTINs whose AATO is ₹10 crore or more: the
	// IRP refuses their documents older than the reporting window
	// (gstportal.ReportingWindowClosed) with gstportal.CodeReportingWindow.
	LargeTaxpayers []string
}

// Server is the simulated portal.
type Server struct {
	key    *rsa.PrivateKey
	encKey *rsa.PrivateKey
	ewbKey *rsa.PrivateKey // the e-way bill system's (ewb.go)
	creds  Credentials
	opts   Options
	now    func() time.Time

	mu      sync.Mutex
	tokens  map[string]*session
	byDoc   map[string]*record // supplier GSTIN|type|number
	byIRN   map[string]*record
	ackSeq  int64
	ewbSeq  int64
	ewbs    map[string]gstportal.EwayBill // by IRN or supplier|doc
	reports int
	// ewbSessions are the e-way bill system's tokens.
	ewbSessions map[string]*ewbSession
}

// record is a registered e-invoice.
type record struct {
	irn  gstportal.IRN
	inv  map[string]any
	date string
}

// session is an access token's: its session key when the auth was
// encrypted (nil: plain JSON).
type session struct {
	sek []byte
}

// New makes a simulator with new 2048-bit key pairs (signing, and NIC's
// payload encryption).
func New(creds Credentials) (*Server, error) {
	return NewWith(creds, Options{})
}

// NewWith makes a simulator that behaves as opts say.
func NewWith(creds Credentials, opts Options) (*Server, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, fmt.Errorf("gstsim: key: %w", err)
	}
	encKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, fmt.Errorf("gstsim: key: %w", err)
	}
	ewbKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, fmt.Errorf("gstsim: key: %w", err)
	}
	return &Server{key: key, encKey: encKey, ewbKey: ewbKey, creds: creds, opts: opts, now: time.Now, tokens: map[string]*session{},
		byDoc: map[string]*record{}, byIRN: map[string]*record{}, ewbs: map[string]gstportal.EwayBill{}, ackSeq: 112610000000000,
		ewbSeq: 391000000000, ewbSessions: map[string]*ewbSession{}}, nil
}

// PublicKey is the key the simulator signs with.
func (s *Server) PublicKey() *rsa.PublicKey { return &s.key.PublicKey }

// PublicKeyPEM is PublicKey as GET /sim/key serves it.
func (s *Server) PublicKeyPEM() []byte { return pemOf(&s.key.PublicKey) }

// EncryptionKeyPEM is the key an encrypted auth's payload is encrypted
// with (NIC's public key), as GET /sim/nic-key serves it.
func (s *Server) EncryptionKeyPEM() []byte { return pemOf(&s.encKey.PublicKey) }

func pemOf(key *rsa.PublicKey) []byte {
	der, _ := x509.MarshalPKIXPublicKey(key)
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

// EwbKeyPEM is the e-way bill system's public key, which its auth payload
// is encrypted with, as GET /sim/ewb-key serves it (NIC's e-way bill key
// is not its e-invoice key).
func (s *Server) EwbKeyPEM() []byte { return pemOf(&s.ewbKey.PublicKey) }

// large reports whether gstin's AATO is ₹10 crore or more.
func (s *Server) large(gstin string) bool { return slices.Contains(s.opts.LargeTaxpayers, gstin) }

// Registered is how many e-invoices the simulator has registered (a
// duplicate registers none).
func (s *Server) Registered() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reports
}

// RevokeTokens forgets every access token it gave, as a portal does when
// they expire or it restarts: the next call with one is refused (1005 by
// the IRP, 238 by the e-way bill system).
func (s *Server) RevokeTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.tokens)
	clear(s.ewbSessions)
}

// Handler is the portal's HTTP API.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sim/key", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-pem-file")
		w.Write(s.PublicKeyPEM())
	})
	mux.HandleFunc("GET /sim/nic-key", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-pem-file")
		w.Write(s.EncryptionKeyPEM())
	})
	mux.HandleFunc("POST "+gstportal.PathAuth, s.auth)
	mux.HandleFunc("POST "+gstportal.PathInvoice, s.authed(s.generate))
	mux.HandleFunc("GET "+gstportal.PathIRNByDoc, s.authed(s.byDocument))
	mux.HandleFunc("POST "+gstportal.PathEwbByIRN, s.authed(s.ewbByIRN))
	mux.HandleFunc("GET /sim/ewb-key", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-pem-file")
		w.Write(s.EwbKeyPEM())
	})
	mux.HandleFunc("POST "+gstportal.PathEwbBase+gstportal.PathEwbAuth, s.ewbAuth)
	mux.HandleFunc("POST "+gstportal.PathEwbBase+gstportal.PathEwbAPI, s.ewbAPI)
	return mux
}

// answer writes a NIC envelope: Status 1 with data as a JSON string, or,
// in an encrypted session (r's), that JSON encrypted with its SEK.
func answer(w http.ResponseWriter, r *http.Request, data any, info []gstportal.Info) {
	raw, _ := json.Marshal(data)
	out := string(raw)
	if sess, _ := r.Context().Value(sessionKey{}).(*session); sess != nil && sess.sek != nil {
		var err error
		if out, err = gstportal.EncryptECB(sess.sek, raw); err != nil {
			http.Error(w, "encryption failed", http.StatusInternalServerError)
			return
		}
	}
	body := map[string]any{"Status": 1, "Data": out, "ErrorDetails": nil, "InfoDtls": info}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(body)
}

// sessionKey keys a request's session in its context.
type sessionKey struct{}

// refuse writes a Status 0 envelope with the IRP's error code.
func refuse(w http.ResponseWriter, code, msg string, info []gstportal.Info) {
	body := map[string]any{"Status": 0, "Data": nil, "InfoDtls": info,
		"ErrorDetails": []map[string]string{{"ErrorCode": code, "ErrorMessage": msg}}}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(body)
}

func match(want, got string) bool { return got != "" && (want == "" || want == got) }

// authed lets through a request with a token the simulator gave; in an
// encrypted session its body must be {"Data": <encrypted JSON>}, which the
// handler gets decrypted, and the answer is encrypted (answer).
func (s *Server) authed(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		sess := s.tokens[r.Header.Get("AuthToken")]
		s.mu.Unlock()
		if sess == nil {
			refuse(w, "1005", "Invalid Token", nil)
			return
		}
		if sess.sek != nil && r.Method == http.MethodPost {
			var in struct{ Data string }
			if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<20)).Decode(&in); err != nil || in.Data == "" {
				refuse(w, gstportal.CodeSchema, "The request payload is not encrypted with the session key", nil)
				return
			}
			plain, err := gstportal.DecryptECB(sess.sek, in.Data)
			if err != nil {
				refuse(w, gstportal.CodeSchema, "The request payload does not decrypt with the session key", nil)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(plain))
		}
		h(w, r.WithContext(context.WithValue(r.Context(), sessionKey{}, sess)))
	}
}
