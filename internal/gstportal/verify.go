package gstportal

import (
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/golang-jwt/jwt/v5"
)

// ErrBadSignature is a SignedInvoice or SignedQRCode that does not verify
// with the portal's key: the shop refuses it.
var ErrBadSignature = errors.New("gstportal: the portal's signature does not verify")

// QRData is what SignedQRCode carries (its "data" claim).
type QRData struct {
	SellerGstin string  `json:"SellerGstin"`
	BuyerGstin  string  `json:"BuyerGstin"`
	DocNo       string  `json:"DocNo"`
	DocTyp      string  `json:"DocTyp"`
	DocDt       string  `json:"DocDt"`
	TotInvVal   float64 `json:"TotInvVal"`
	ItemCnt     int     `json:"ItemCnt"`
	MainHsnCode string  `json:"MainHsnCode"`
	Irn         string  `json:"Irn"`
	IrnDt       string  `json:"IrnDt"`
}

// signedClaims are the IRP's JWT claims: the document as a JSON string in
// data, and the issuer.
type signedClaims struct {
	Data string `json:"data"`
	jwt.RegisteredClaims
}

// VerifySigned checks token (RS256 by key) and decodes its data claim into
// v. Errors: ErrBadSignature.
func VerifySigned(key *rsa.PublicKey, token string, v any) error {
	var c signedClaims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodRS256.Alg()}))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadSignature, err)
	}
	if err := json.Unmarshal([]byte(c.Data), v); err != nil {
		return fmt.Errorf("%w: data: %v", ErrBadSignature, err)
	}
	return nil
}

// Verify checks that irn's SignedInvoice and SignedQRCode verify with key
// and carry its IRN. Errors: ErrBadSignature.
func Verify(key *rsa.PublicKey, irn *IRN) error {
	var inv struct {
		Irn string `json:"Irn"`
	}
	if err := VerifySigned(key, irn.SignedInvoice, &inv); err != nil {
		return err
	}
	var qr QRData
	if err := VerifySigned(key, irn.SignedQRCode, &qr); err != nil {
		return err
	}
	if inv.Irn != irn.Irn || qr.Irn != irn.Irn {
		return fmt.Errorf("%w: the signed documents carry another IRN", ErrBadSignature)
	}
	return nil
}
