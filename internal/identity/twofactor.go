package identity

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image/png"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// TOTPSetup is a freshly generated, not yet enabled, TOTP secret.
type TOTPSetup struct {
	Secret string
	// URL is the otpauth:// URL authenticator apps import.
	URL string
	// QRCode is the URL as a PNG QR code, in a data:image/png;base64 URL.
	QRCode string
}

var (
	errTwoFactorOn    = apperr.New(apperr.Conflict, "two-factor authentication is already enabled; disable it first")
	errTwoFactorOff   = apperr.New(apperr.Conflict, "two-factor authentication is not enabled")
	errNoPendingTOTP  = apperr.New(apperr.Conflict, "no pending secret: call generate-secret first")
	errInvalidTOTP    = apperr.Invalid("code", "is not a valid code")
	errTOTPShapedCode = apperr.Invalid("code", "must be the 6-digit code of the authenticator app")
)

// qrSize is the width and height of the QR code image, in pixels.
const qrSize = 256

func (s *Service) issuer() string {
	if s.set.Issuer == "" {
		return "Shop"
	}
	return s.set.Issuer
}

// TwoFactorStatus reports whether the admin has 2FA enabled.
// Errors: SERVICE_UNAVAILABLE.
func (s *Service) TwoFactorStatus(ctx context.Context, adminID uuid.UUID) (bool, error) {
	on, err := twoFactorEnabled(s.db.WithContext(ctx), adminID)
	return on, database.Translate(err, "two-factor configuration")
}

// GenerateTwoFactorSecret makes a new TOTP secret for the admin, labelled
// with the issuer and accountName, and stores it as pending: 2FA stays off
// until EnableTwoFactor. A previous pending secret is replaced.
// Errors: CONFLICT when 2FA is already enabled.
func (s *Service) GenerateTwoFactorSecret(ctx context.Context, adminID uuid.UUID, accountName string) (*TOTPSetup, error) {
	key, err := totp.Generate(totp.GenerateOpts{
		Issuer: s.issuer(), AccountName: accountName, Period: totpPeriod,
		SecretSize: 20, Digits: totpDigits, Algorithm: otp.AlgorithmSHA1,
	})
	if err != nil {
		return nil, fmt.Errorf("identity.totp_generate: %w", err)
	}
	img, err := key.Image(qrSize, qrSize)
	if err != nil {
		return nil, fmt.Errorf("identity.totp_qr: %w", err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("identity.totp_qr: %w", err)
	}
	// The WHERE makes "replace only while not enabled" one atomic statement.
	res := s.db.WithContext(ctx).Exec(`INSERT INTO admin_two_factor (admin_id, secret, backup_codes, enabled, last_used_step)
		VALUES (?, ?, '{}', false, 0)
		ON CONFLICT (admin_id) DO UPDATE SET secret = EXCLUDED.secret, backup_codes = '{}', last_used_step = 0, updated_at = now()
		WHERE admin_two_factor.enabled = false`, adminID, key.Secret())
	if res.Error != nil {
		return nil, database.Translate(res.Error, "two-factor configuration")
	}
	if res.RowsAffected == 0 {
		return nil, errTwoFactorOn
	}
	return &TOTPSetup{
		Secret: key.Secret(), URL: key.URL(),
		QRCode: "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()),
	}, nil
}

// EnableTwoFactor switches 2FA on after code (a TOTP code of the pending
// secret) proves the authenticator app holds it, and returns the backup
// codes: shown this once, stored only hashed.
// A keyed request retried after its process died (its answer, which
// carried the codes, was never sent) finds the switch recorded under its
// key and answers new backup codes in place of the unseen ones: the codes
// are kept only hashed, so the same ones cannot be answered again; its
// code was checked, and its TOTP step used, by the first run.
// Errors: VALIDATION_ERROR on field "code", CONFLICT (no pending secret, or
// already enabled).
func (s *Service) EnableTwoFactor(ctx context.Context, adminID uuid.UUID, code string) ([]string, error) {
	_, rerun := idempotency.RecordedChange(ctx)
	var codes []string
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		tf, err := lockTwoFactor(tx, adminID)
		if err != nil {
			return err
		}
		if tf == nil {
			return errNoPendingTOTP
		}
		if rerun && tf.Enabled {
			return reissueBackupCodes(tx, tf, adminID, &codes)
		}
		if tf.Enabled {
			return errTwoFactorOn
		}
		if !isTOTPCode(code) {
			return errTOTPShapedCode
		}
		_, ok, err := s.verifyCode(tx, adminID, tf.Secret, code, false)
		if err != nil {
			return err
		}
		if !ok {
			return errInvalidTOTP
		}
		if err := idempotency.RecordChange(uow.Within(ctx, tx), adminID.String()); err != nil {
			return err
		}
		return reissueBackupCodes(tx, tf, adminID, &codes)
	})
	if err != nil {
		return nil, database.Translate(err, "two-factor configuration")
	}
	return codes, nil
}

// reissueBackupCodes switches tf on with new backup codes, stored hashed,
// which it returns in codes.
func reissueBackupCodes(tx *gorm.DB, tf *models.AdminTwoFactor, adminID uuid.UUID, codes *[]string) error {
	var err error
	if *codes, err = newBackupCodes(); err != nil {
		return err
	}
	hashes := make([]string, len(*codes))
	for i, c := range *codes {
		hashes[i] = backupCodeHash(adminID, c)
	}
	return tx.Model(tf).Updates(map[string]any{"enabled": true, "backup_codes": models.StringArray(hashes)}).Error
}

// DisableTwoFactor switches 2FA off, proven by a TOTP code or a backup code,
// and deletes the secret and the backup codes.
// A keyed request retried after its process died answers as the switch
// did (it records the admin under the key; the code it was proven by is
// used up). Errors: VALIDATION_ERROR on field "code", CONFLICT (not
// enabled).
func (s *Service) DisableTwoFactor(ctx context.Context, adminID uuid.UUID, code string) error {
	if _, ok := idempotency.RecordedChange(ctx); ok {
		return nil
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		tf, err := lockTwoFactor(tx, adminID)
		if err != nil {
			return err
		}
		if tf == nil || !tf.Enabled {
			return errTwoFactorOff
		}
		_, ok, err := s.verifyCode(tx, adminID, tf.Secret, code, true)
		if err != nil {
			return err
		}
		if !ok {
			return errInvalidTOTP
		}
		if err := idempotency.RecordChange(uow.Within(ctx, tx), adminID.String()); err != nil {
			return err
		}
		return tx.Delete(tf).Error
	})
	return database.Translate(err, "two-factor configuration")
}

// CheckTwoFactorCode checks a TOTP or backup code of a signed-in admin and
// consumes it as a login would (a TOTP step once, a backup code once).
// Audited as auth.2fa_check or auth.2fa_failed.
// Errors: CONFLICT (2FA not enabled).
func (s *Service) CheckTwoFactorCode(ctx context.Context, adminID uuid.UUID, code string, client ClientInfo) (bool, error) {
	var valid bool
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var tf models.AdminTwoFactor
		err := tx.Where("admin_id = ? AND enabled", adminID).Take(&tf).Error
		if database.IsNotFound(err) {
			return errTwoFactorOff
		}
		if err != nil {
			return err
		}
		method, ok, err := s.verifyCode(tx, adminID, tf.Secret, code, true)
		if err != nil {
			return err
		}
		valid = ok
		action := ActionTwoFactorCheck
		if !ok {
			action = ActionTwoFactorFailed
		}
		return record(ctx, tx, adminID, action, adminID.String(), map[string]any{"method": method, "step": "check"}, client)
	})
	if err != nil {
		return false, database.Translate(err, "two-factor configuration")
	}
	return valid, nil
}

// lockTwoFactor reads the admin's 2FA row FOR UPDATE; nil when there is none.
func lockTwoFactor(tx *gorm.DB, adminID uuid.UUID) (*models.AdminTwoFactor, error) {
	var tf models.AdminTwoFactor
	err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("admin_id = ?", adminID).Take(&tf).Error
	if database.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &tf, nil
}
