package gstportal

import (
	"bytes"
	"crypto/aes"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"errors"
	"fmt"
)

// The NIC e-invoice API's payload encryption (docs/DECISIONS.md "NIC
// payload encryption"), used when the shop talks to NIC directly rather
// than through a GSP that does it:
//
//   - auth: the JSON {UserName, Password, AppKey, ForceRefreshAccessToken}
//     is base64-encoded and that text encrypted with NIC's public key (RSA,
//     PKCS #1 v1.5), sent base64 as {"Data": ...}. AppKey is 32 random
//     bytes, base64, new for every auth.
//   - the answer's Sek is the session key (32 bytes) encrypted with the
//     AppKey, AES-256 in ECB mode with PKCS #7 padding, base64.
//   - every later request body is {"Data": base64(AES-256-ECB(SEK, JSON))}
//     and every answer's Data is the same encryption of its JSON; refusals
//     (Status 0) come in clear.
//
// ECB is what NIC specifies, not a choice: each payload is encrypted under
// a session key of its own, fresh at every auth.

// ErrDecrypt is a payload that does not decrypt with the key it should: a
// wrong key, or a message that is not the API's encryption.
var ErrDecrypt = errors.New("gstportal: payload does not decrypt")

// NewAppKey returns a new 32-byte AES-256 key, as the auth's AppKey and
// the simulator's SEK are made.
func NewAppKey() ([]byte, error) {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("gstportal: app key: %w", err)
	}
	return k, nil
}

// EncryptECB encrypts plain with key (AES-256, ECB, PKCS #7 padding) and
// returns it base64.
func EncryptECB(key, plain []byte) (string, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return "", fmt.Errorf("gstportal: %w", err)
	}
	n := aes.BlockSize - len(plain)%aes.BlockSize
	buf := append(bytes.Clone(plain), bytes.Repeat([]byte{byte(n)}, n)...)
	for i := 0; i < len(buf); i += aes.BlockSize {
		block.Encrypt(buf[i:i+aes.BlockSize], buf[i:i+aes.BlockSize])
	}
	return base64.StdEncoding.EncodeToString(buf), nil
}

// DecryptECB reverses EncryptECB. Errors: ErrDecrypt.
func DecryptECB(key []byte, b64 string) ([]byte, error) {
	buf, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(buf) == 0 || len(buf)%aes.BlockSize != 0 {
		return nil, ErrDecrypt
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, ErrDecrypt
	}
	for i := 0; i < len(buf); i += aes.BlockSize {
		block.Decrypt(buf[i:i+aes.BlockSize], buf[i:i+aes.BlockSize])
	}
	n := int(buf[len(buf)-1])
	if n == 0 || n > aes.BlockSize || !bytes.Equal(buf[len(buf)-n:], bytes.Repeat([]byte{byte(n)}, n)) {
		return nil, ErrDecrypt
	}
	return buf[:len(buf)-n], nil
}

// EncryptAuth is the auth request's Data: payload (the JSON) base64, then
// encrypted with NIC's public key, base64.
func EncryptAuth(key *rsa.PublicKey, payload []byte) (string, error) {
	inner := []byte(base64.StdEncoding.EncodeToString(payload))
	out, err := rsa.EncryptPKCS1v15(rand.Reader, key, inner)
	if err != nil {
		return "", fmt.Errorf("gstportal: auth payload: %w", err)
	}
	return base64.StdEncoding.EncodeToString(out), nil
}

// DecryptAuth reverses EncryptAuth with the portal's private key (the
// simulator's). Errors: ErrDecrypt.
func DecryptAuth(key *rsa.PrivateKey, data string) ([]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return nil, ErrDecrypt
	}
	inner, err := rsa.DecryptPKCS1v15(nil, key, raw)
	if err != nil {
		return nil, ErrDecrypt
	}
	out, err := base64.StdEncoding.DecodeString(string(inner))
	if err != nil {
		return nil, ErrDecrypt
	}
	return out, nil
}
