package gstsim

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"time"

	"github.com/gocommerce/shop/internal/gstportal"
)

// auth is the auth API: the credentials in clear (a GSP-shaped session)
// or, as NIC takes them, encrypted with the key of GET /sim/nic-key with an
// app key, under which the session key (Sek) is answered.
func (s *Server) auth(w http.ResponseWriter, r *http.Request) {
	var in struct {
		UserName, Password, AppKey string
		Data                       string
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
	sess := &session{}
	var appKey []byte
	switch {
	case in.Data != "":
		plain, err := gstportal.DecryptAuth(s.encKey, in.Data)
		if err == nil {
			err = json.Unmarshal(plain, &in)
		}
		if err == nil {
			appKey, err = base64.StdEncoding.DecodeString(in.AppKey)
		}
		if err != nil || len(appKey) != 32 {
			refuse(w, "1016", "Decryption of App Key failed", nil)
			return
		}
		if sess.sek, err = gstportal.NewAppKey(); err != nil {
			http.Error(w, "no session key", http.StatusInternalServerError)
			return
		}
	case s.opts.RequireEncryption:
		refuse(w, "1013", "Decryption of password failed", nil)
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
	s.tokens[tok] = sess
	s.mu.Unlock()
	out := map[string]string{"ClientId": r.Header.Get("client_id"), "UserName": in.UserName, "AuthToken": tok,
		"TokenExpiry": s.now().In(gstportal.IST).Add(6 * time.Hour).Format(gstportal.AckLayout)}
	if sess.sek != nil {
		sek, err := gstportal.EncryptECB(appKey, sess.sek)
		if err != nil {
			http.Error(w, "encryption failed", http.StatusInternalServerError)
			return
		}
		out["Sek"] = sek
	}
	// The auth's Data is in clear even in an encrypted session: the Sek in
	// it is what the client decrypts with its app key.
	answer(w, r, out, nil)
}
