package identity

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/hex"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"gorm.io/gorm"
)

// TOTP parameters (RFC 6238): 30 s steps, 6 digits, HMAC-SHA1 (what every
// authenticator app supports), and one step of clock skew either way.
const (
	totpPeriod = 30
	totpSkew   = 1
	totpDigits = otp.DigitsSix
)

// BackupCodeCount is how many backup codes enabling 2FA hands out.
const BackupCodeCount = 10

// maxCodeLength bounds a submitted code; anything longer is simply wrong.
const maxCodeLength = 64

var totpOpts = totp.ValidateOpts{Period: totpPeriod, Digits: totpDigits, Algorithm: otp.AlgorithmSHA1}

// CodeAt is the code an authenticator app shows for secret at time at, with
// the settings sign-in checks (tests and the console's browser journey
// sign in with it).
func CodeAt(secret string, at time.Time) (string, error) {
	return totp.GenerateCodeCustom(secret, at, totpOpts)
}

// isTOTPCode reports whether code has the shape of a TOTP code (6 digits);
// any other shape is treated as a backup code.
func isTOTPCode(code string) bool {
	if len(code) != totpDigits.Length() {
		return false
	}
	for _, r := range code {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// matchTOTPStep returns the time step, within ±totpSkew of now, whose code is
// code, or -1. Every candidate is compared, in constant time.
func matchTOTPStep(secret, code string, now time.Time) int64 {
	cur := now.Unix() / totpPeriod
	found := int64(-1)
	for step := cur - totpSkew; step <= cur+totpSkew; step++ {
		want, err := CodeAt(secret, time.Unix(step*totpPeriod, 0))
		if err != nil {
			return -1
		}
		if subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			found = step
		}
	}
	return found
}

// Ways a second factor was proven, kept in audit metadata.
const (
	methodTOTP   = "totp"
	methodBackup = "backup_code"
)

// verifyCode checks code for the admin and consumes it, atomically, so a
// code is accepted once even when submitted concurrently:
//   - a TOTP code is accepted only if its step is newer than the last step
//     accepted (UPDATE ... WHERE last_used_step < step), so it cannot be
//     replayed within its window;
//   - a backup code (only when the row is enabled) is removed from the row
//     by the same statement that finds it.
//
// enabled is the state the row must be in; secret is the row's secret, read
// by the caller in the same transaction.
func (s *Service) verifyCode(tx *gorm.DB, adminID uuid.UUID, secret, code string, enabled bool) (method string, ok bool, err error) {
	code = strings.TrimSpace(code)
	if code == "" || len(code) > maxCodeLength {
		return methodTOTP, false, nil
	}
	if isTOTPCode(code) {
		step := matchTOTPStep(secret, code, s.now())
		if step < 0 {
			return methodTOTP, false, nil
		}
		res := tx.Exec(`UPDATE admin_two_factor SET last_used_step = ?, updated_at = now()
			WHERE admin_id = ? AND enabled = ? AND last_used_step < ?`, step, adminID, enabled, step)
		return methodTOTP, res.RowsAffected == 1, res.Error
	}
	if !enabled {
		return methodBackup, false, nil
	}
	h := backupCodeHash(adminID, code)
	res := tx.Exec(`UPDATE admin_two_factor SET backup_codes = array_remove(backup_codes, ?::text), updated_at = now()
		WHERE admin_id = ? AND enabled AND ?::text = ANY(backup_codes)`, h, adminID, h)
	return methodBackup, res.RowsAffected == 1, res.Error
}

// newBackupCodes returns BackupCodeCount codes of 80 random bits each,
// written as four groups of four base32 letters ("abcd-efgh-ijkl-mnop").
func newBackupCodes() ([]string, error) {
	codes := make([]string, BackupCodeCount)
	enc := base32.StdEncoding.WithPadding(base32.NoPadding)
	for i := range codes {
		b := make([]byte, 10)
		if _, err := rand.Read(b); err != nil {
			return nil, err
		}
		s := strings.ToLower(enc.EncodeToString(b))
		codes[i] = s[0:4] + "-" + s[4:8] + "-" + s[8:12] + "-" + s[12:16]
	}
	return codes, nil
}

// backupCodeHash is the stored form of a backup code: SHA-256 over the admin
// id and the code without case, spaces or dashes. A fast hash is enough: the
// codes carry 80 random bits, far beyond offline guessing, unlike passwords.
func backupCodeHash(adminID uuid.UUID, code string) string {
	norm := strings.NewReplacer("-", "", " ", "").Replace(strings.ToLower(strings.TrimSpace(code)))
	sum := sha256.Sum256([]byte(adminID.String() + ":" + norm))
	return hex.EncodeToString(sum[:])
}
