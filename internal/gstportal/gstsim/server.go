// Package gstsim is a local Invoice Registration Portal and e-way bill
// system: `shop gst-sim` runs it, tests start it in-process. It speaks the
// NIC APIs' shapes (package gstportal), checks every e-invoice against the
// published schema 1.1 (schema/einvoice-1.1.json) and the GSTIN check
// character, gives the IRN as the IRP computes it, signs SignedInvoice and
// SignedQRCode RS256 with a key it makes at start (GET /sim/key serves the
// public half) and answers the IRP's error codes, duplicate IRN included.
// What it registers is kept in memory.
package gstsim

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gocommerce/shop/internal/gstportal"
)

// Credentials are the API credentials the simulator accepts; empty fields
// accept anything but an empty value.
type Credentials struct {
	User, Password, ClientID, ClientSecret string
}

// Server is the simulated portal.
type Server struct {
	key   *rsa.PrivateKey
	creds Credentials
	now   func() time.Time

	mu      sync.Mutex
	tokens  map[string]bool
	byDoc   map[string]*record // supplier GSTIN|type|number
	byIRN   map[string]*record
	ackSeq  int64
	ewbSeq  int64
	ewbs    map[string]gstportal.EwayBill // by IRN or supplier|doc
	reports int
}

// record is a registered e-invoice.
type record struct {
	irn  gstportal.IRN
	inv  map[string]any
	date string
}

// New makes a simulator with a new 2048-bit key pair.
func New(creds Credentials) (*Server, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, fmt.Errorf("gstsim: key: %w", err)
	}
	return &Server{key: key, creds: creds, now: time.Now, tokens: map[string]bool{}, byDoc: map[string]*record{},
		byIRN: map[string]*record{}, ewbs: map[string]gstportal.EwayBill{}, ackSeq: 112610000000000, ewbSeq: 391000000000}, nil
}

// PublicKey is the key the simulator signs with.
func (s *Server) PublicKey() *rsa.PublicKey { return &s.key.PublicKey }

// PublicKeyPEM is PublicKey as GET /sim/key serves it.
func (s *Server) PublicKeyPEM() []byte {
	der, _ := x509.MarshalPKIXPublicKey(&s.key.PublicKey)
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

// Registered is how many e-invoices the simulator has registered (a
// duplicate registers none).
func (s *Server) Registered() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reports
}

// Handler is the portal's HTTP API.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sim/key", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-pem-file")
		w.Write(s.PublicKeyPEM())
	})
	mux.HandleFunc("POST "+gstportal.PathAuth, s.auth)
	mux.HandleFunc("POST "+gstportal.PathInvoice, s.authed(s.generate))
	mux.HandleFunc("GET "+gstportal.PathIRNByDoc, s.authed(s.byDocument))
	mux.HandleFunc("POST "+gstportal.PathEwbByIRN, s.authed(s.ewbByIRN))
	mux.HandleFunc("POST "+gstportal.PathEwayBill, s.authedEwb(s.genEwayBill))
	return mux
}

// answer writes a NIC envelope: Status 1 with data as a JSON string.
func answer(w http.ResponseWriter, data any, info []gstportal.Info) {
	raw, _ := json.Marshal(data)
	body := map[string]any{"Status": 1, "Data": string(raw), "ErrorDetails": nil, "InfoDtls": info}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(body)
}

// refuse writes a Status 0 envelope with the IRP's error code.
func refuse(w http.ResponseWriter, code, msg string, info []gstportal.Info) {
	body := map[string]any{"Status": 0, "Data": nil, "InfoDtls": info,
		"ErrorDetails": []map[string]string{{"ErrorCode": code, "ErrorMessage": msg}}}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(body)
}

func (s *Server) auth(w http.ResponseWriter, r *http.Request) {
	var in struct {
		UserName, Password string
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&in); err != nil {
		refuse(w, "1005", "Invalid Token / request", nil)
		return
	}
	c := s.creds
	if !match(c.ClientID, r.Header.Get("client_id")) || !match(c.ClientSecret, r.Header.Get("client_secret")) {
		refuse(w, "1010", "Invalid Client-ID/Client-Secret", nil)
		return
	}
	if !match(c.User, in.UserName) || !match(c.Password, in.Password) {
		refuse(w, "1005", "Invalid user name or password", nil)
		return
	}
	b := make([]byte, 16)
	rand.Read(b)
	tok := hex.EncodeToString(b)
	s.mu.Lock()
	s.tokens[tok] = true
	s.mu.Unlock()
	answer(w, map[string]string{"ClientId": r.Header.Get("client_id"), "UserName": in.UserName, "AuthToken": tok,
		"TokenExpiry": s.now().In(gstportal.IST).Add(6 * time.Hour).Format(gstportal.AckLayout)}, nil)
}

func match(want, got string) bool { return got != "" && (want == "" || want == got) }

// authed lets through a request with a token the simulator gave.
func (s *Server) authed(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		ok := s.tokens[r.Header.Get("AuthToken")]
		s.mu.Unlock()
		if !ok {
			refuse(w, "1005", "Invalid Token", nil)
			return
		}
		h(w, r)
	}
}

func (s *Server) authedEwb(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		ok := s.tokens[r.Header.Get("authtoken")]
		s.mu.Unlock()
		if !ok {
			ewbRefuse(w, "238", "Invalid auth token")
			return
		}
		h(w, r)
	}
}
