package invoice

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"errors"
	"fmt"
	"time"

	"github.com/digitorus/pdf"
	"github.com/digitorus/pdfsign/sign"
	"software.sslmate.com/src/go-pkcs12"
)

// Signer signs document PDFs with the store's digital signature
// certificate (a DSC, as Rule 46 allows an invoice to be authenticated by
// a digital signature under the Information Technology Act 2000): a
// PKCS#12 file's key and certificate chain. A PDF it signs carries an
// approval signature over the whole file, which any reader (poppler's
// pdfsig, Acrobat) verifies.
type Signer struct {
	key   crypto.Signer
	cert  *x509.Certificate
	chain []*x509.Certificate
}

// NewSigner reads a PKCS#12 file's key and certificates (p12, opened with
// password). Errors: a plain error naming what is wrong, for start-up.
func NewSigner(p12 []byte, password string) (*Signer, error) {
	key, cert, chain, err := pkcs12.DecodeChain(p12, password)
	if err != nil {
		return nil, fmt.Errorf("invoice.signer: the PKCS#12 file: %w", err)
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, errors.New("invoice.signer: the PKCS#12 file's key cannot sign")
	}
	return &Signer{key: signer, cert: cert, chain: chain}, nil
}

// Subject is the certificate's holder, as the signature names it.
func (s *Signer) Subject() string { return s.cert.Subject.CommonName }

// NotAfter is when the certificate expires.
func (s *Signer) NotAfter() time.Time { return s.cert.NotAfter }

// Sign returns doc signed for reason by the certificate at time at.
func (s *Signer) Sign(doc []byte, reason string, at time.Time) ([]byte, error) {
	rdr, err := pdf.NewReader(bytes.NewReader(doc), int64(len(doc)))
	if err != nil {
		return nil, fmt.Errorf("invoice.sign: read: %w", err)
	}
	var out bytes.Buffer
	chain := append([]*x509.Certificate{s.cert}, s.chain...)
	err = sign.Sign(bytes.NewReader(doc), &out, rdr, int64(len(doc)), sign.SignData{
		Signature: sign.SignDataSignature{
			Info:     sign.SignDataSignatureInfo{Name: s.cert.Subject.CommonName, Reason: reason, Date: at},
			CertType: sign.ApprovalSignature,
		},
		Signer:            s.key,
		DigestAlgorithm:   crypto.SHA256,
		Certificate:       s.cert,
		CertificateChains: [][]*x509.Certificate{chain},
	})
	if err != nil {
		return nil, fmt.Errorf("invoice.sign: %w", err)
	}
	return out.Bytes(), nil
}
