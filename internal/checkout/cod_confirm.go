package checkout

import (
	"encoding/json"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// WithOTPs makes otps check the codes of COD checkouts confirmed by OTP.
func (s *Service) WithOTPs(otps *cod.OTPs) *Service {
	s.otps = otps
	return s
}

// confirmCOD applies the payment settings' COD confirmation to a COD
// order of total for the buyer, in tx: by OTP the code is spent (or the
// checkout refused, naming codOtp); by link the order is placed pending
// its confirmation (pending true). Errors: VALIDATION_ERROR (codOtp),
// SERVICE_UNAVAILABLE (OTP confirmation without a code service).
func (s *Service) confirmCOD(tx *gorm.DB, total money.Amount, email, phone, code string) (pending bool, err error) {
	mode, err := cod.NeedsConfirmation(tx, int64(total), email, phone)
	if err != nil {
		return false, err
	}
	switch mode {
	case cod.ConfirmOTP:
		if s.otps == nil {
			return false, apperr.New(apperr.Unavailable, "cash on delivery codes cannot be checked")
		}
		return false, s.otps.Use(tx, phone, code)
	case cod.ConfirmLink:
		return true, nil
	}
	return false, nil
}

// pincodeOf is the pincode of a snapshot address.
func pincodeOf(addr json.RawMessage) string {
	var a models.Address
	_ = json.Unmarshal(addr, &a)
	return a.Pincode
}
