package cod

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"math/big"
	"strconv"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// A COD one-time code: 6 digits, valid 5 minutes, 3 wrong tries.
const (
	OTPDigits   = 6
	OTPLifetime = 5 * time.Minute
	OTPTries    = 3
)

// OTPs sends the codes of POST /cart/cod-otp and checks them at a COD
// checkout that needs confirmation. Only a keyed hash of a code is kept.
type OTPs struct {
	db       *gorm.DB
	units    uow.Runner
	messages *messaging.Service
	secret   []byte
	now      func() time.Time
}

// NewOTPs returns the codes' service; secret keys the codes' hashes.
func NewOTPs(db *gorm.DB, q tasks.Enqueuer, log *slog.Logger, messages *messaging.Service, secret []byte) *OTPs {
	return &OTPs{db: db, units: uow.NewRunner(db, q, log), messages: messages, secret: secret,
		now: func() time.Time { return time.Now().UTC() }}
}

// WithClock makes now the codes' clock (tests).
func (o *OTPs) WithClock(now func() time.Time) { o.now = now }

func (o *OTPs) hash(phone, code string) string { return OTPHash(o.secret, phone, code) }

// OTPHash is the kept hash of code sent to phone (international digits)
// under secret.
func OTPHash(secret []byte, phone, code string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(phone + ":" + code))
	return hex.EncodeToString(m.Sum(nil))
}

// Send makes a new code for phone (replacing an earlier one) and writes
// its message, sent by the worker. Errors: VALIDATION_ERROR (phone is not
// a mobile number), SERVICE_UNAVAILABLE (no channel sends codes: the
// codOtp message has no channel with a provider).
func (o *OTPs) Send(ctx context.Context, phone string) error {
	to := messaging.Phone(phone)
	if to == "" {
		return apperr.Invalid("phone", "must be a mobile number")
	}
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return err
	}
	code := fmt.Sprintf("%06d", n.Int64())
	now := o.now()
	err = o.units.Run(ctx, func(u *uow.Unit) error {
		sent, err := o.messages.Stage(u, messaging.Request{Event: messaging.EventCODOTP, Subject: to + ":" + uuid.NewString(),
			Phone: to, Variables: []string{code, strconv.Itoa(int(OTPLifetime / time.Minute))}})
		if err != nil {
			return err
		}
		if sent == 0 {
			return apperr.New(apperr.Unavailable, "codes cannot be sent: no message channel is set up for them")
		}
		u.Add(`INSERT INTO cod_otps (phone, code_hash, expires_at, tries, used_at, created_at) VALUES (?, ?, ?, 0, NULL, ?)
			ON CONFLICT (phone) DO UPDATE SET code_hash = EXCLUDED.code_hash, expires_at = EXCLUDED.expires_at, tries = 0,
			used_at = NULL, created_at = EXCLUDED.created_at`, to, o.hash(to, code), now.Add(OTPLifetime), now)
		return nil
	})
	if err != nil {
		return database.Translate(err, "cod otp")
	}
	return nil
}

// Use spends the code of phone in tx, the checkout's transaction (a
// checkout that fails afterwards rolls it back: the code stays usable).
// A wrong code counts a try at once, outside tx, so failed checkouts
// cannot guess forever. Errors: VALIDATION_ERROR naming codOtp (missing,
// wrong, expired, spent by three wrong tries, used, or sent to another
// phone).
func (o *OTPs) Use(tx *gorm.DB, phone, code string) error {
	to := messaging.Phone(phone)
	if code == "" {
		return apperr.Invalid("codOtp", "is required: this cash on delivery order must be confirmed with the code sent to the phone (POST /cart/cod-otp)")
	}
	var rows []struct {
		CodeHash  string
		ExpiresAt time.Time
		Tries     int
		UsedAt    *time.Time
	}
	if err := tx.Raw(`SELECT code_hash, expires_at, tries, used_at FROM cod_otps WHERE phone = ?`, to).Scan(&rows).Error; err != nil {
		return fmt.Errorf("cod.otp: %w", err)
	}
	now := o.now()
	switch {
	case to == "" || len(rows) == 0:
		return apperr.Invalid("codOtp", "no code was sent to this phone; ask for one")
	case rows[0].UsedAt != nil:
		return apperr.Invalid("codOtp", "the code was already used; ask for a new one")
	case rows[0].Tries >= OTPTries:
		return apperr.Invalid("codOtp", "too many wrong codes; ask for a new one")
	case !now.Before(rows[0].ExpiresAt):
		return apperr.Invalid("codOtp", "the code expired; ask for a new one")
	case !hmac.Equal([]byte(rows[0].CodeHash), []byte(o.hash(to, code))):
		if err := o.db.Exec(`UPDATE cod_otps SET tries = tries + 1 WHERE phone = ? AND code_hash = ?`, to, rows[0].CodeHash).Error; err != nil {
			return fmt.Errorf("cod.otp: %w", err)
		}
		return apperr.Invalid("codOtp", "the code is wrong")
	}
	res := tx.Exec(`UPDATE cod_otps SET used_at = ? WHERE phone = ? AND code_hash = ? AND used_at IS NULL AND tries < ?`,
		now, to, rows[0].CodeHash, OTPTries)
	if res.Error != nil {
		return fmt.Errorf("cod.otp: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return apperr.Invalid("codOtp", "the code was already used; ask for a new one")
	}
	return nil
}

// NeedsConfirmation says how the COD order of total for buyer email and
// phone must be confirmed, read in tx: "" (not at all), ConfirmOTP or
// ConfirmLink. With neither confirmAbove nor confirmFirstOrder set, every
// COD order is confirmed; otherwise an order above confirmAbove, or (with
// confirmFirstOrder) a buyer's first order, is.
func NeedsConfirmation(tx *gorm.DB, total int64, email, phone string) (string, error) {
	set, err := load(tx)
	if err != nil {
		return "", fmt.Errorf("cod.needs_confirmation: %w", err)
	}
	c := set.COD
	if c.Confirmation == ConfirmNone || c.Confirmation == "" {
		return "", nil
	}
	if c.ConfirmAbove == 0 && !c.ConfirmFirstOrder {
		return c.Confirmation, nil
	}
	if c.ConfirmAbove > 0 && total > int64(c.ConfirmAbove) {
		return c.Confirmation, nil
	}
	if c.ConfirmFirstOrder {
		var n int64
		if err := tx.Raw(`SELECT count(*) FROM (SELECT 1 FROM orders WHERE ? <> '' AND email = ? AND status <> 'cancelled'
			UNION ALL SELECT 1 FROM orders WHERE ? <> '' AND phone = ? AND status <> 'cancelled' LIMIT 1) earlier`,
			email, email, phone, phone).Scan(&n).Error; err != nil {
			return "", fmt.Errorf("cod.needs_confirmation: %w", err)
		}
		if n == 0 {
			return c.Confirmation, nil
		}
	}
	return "", nil
}
