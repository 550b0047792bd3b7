package cod

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Settings are the store's payment settings (GET/PUT
// /admin/settings/payments).
type Settings struct {
	COD CODSettings `json:"cod"`
}

// CODSettings say when a cart may pay on delivery and what it costs.
type CODSettings struct {
	Enabled bool `json:"enabled"`
	// MaxOrderAmount is the highest order total (after discounts, with
	// shipping and the fee) COD is offered for; 0 sets no limit.
	MaxOrderAmount money.Amount `json:"maxOrderAmount"`
	// Fee is charged on a COD order, GST-inclusive at FeeGSTRate.
	Fee        money.Amount `json:"fee"`
	FeeGSTRate money.Rate   `json:"feeGstRate"`
	// ZoneIDs are the shipping zones COD is offered in; empty: every zone.
	ZoneIDs []uuid.UUID `json:"zoneIds"`
	// MaxOpenPerCustomer caps a buyer's COD orders neither paid nor
	// cancelled, counted by email and by phone; 0 refuses COD to everyone.
	MaxOpenPerCustomer int `json:"maxOpenPerCustomer"`
	// Confirmation is how a COD order is confirmed before it ships
	// (confirm.go): ConfirmNone, ConfirmOTP or ConfirmLink; it applies to
	// orders above ConfirmAbove (0: every order) and, with
	// ConfirmFirstOrder, to every first order of a buyer whatever its total.
	Confirmation      string       `json:"confirmation"`
	ConfirmAbove      money.Amount `json:"confirmAbove"`
	ConfirmFirstOrder bool         `json:"confirmFirstOrder"`
	// BlockedPincodes are the pincodes COD is refused at.
	BlockedPincodes []string `json:"blockedPincodes"`
}

// Defaults of a store that never set its payment settings.
const (
	DefaultFeeGSTRate         money.Rate = 1800
	DefaultMaxOpenPerCustomer            = 3
	// maxCap bounds maxOpenPerCustomer to a number a person means.
	maxCap = 1000
)

// Defaults are the settings before an administrator sets any: COD off.
func Defaults() Settings {
	return Settings{COD: CODSettings{FeeGSTRate: DefaultFeeGSTRate, ZoneIDs: []uuid.UUID{},
		MaxOpenPerCustomer: DefaultMaxOpenPerCustomer, Confirmation: ConfirmNone, BlockedPincodes: []string{}}}
}

// Service reads and writes the payment settings.
type Service struct {
	db *gorm.DB
}

// New returns the service.
func New(db *gorm.DB) *Service { return &Service{db: db} }

// Settings returns the payment settings (Defaults when none were set).
func (s *Service) Settings(ctx context.Context) (*Settings, error) {
	out, err := load(s.db.WithContext(ctx))
	if err != nil {
		return nil, database.Translate(err, "payment settings")
	}
	return out, nil
}

// load reads the settings row in db (a transaction or not).
func load(db *gorm.DB) (*Settings, error) {
	var row models.PaymentSettings
	q := db.Limit(1).Find(&row)
	if q.Error != nil {
		return nil, q.Error
	}
	if q.RowsAffected == 0 {
		d := Defaults()
		return &d, nil
	}
	c := CODSettings{Enabled: row.CODEnabled, MaxOrderAmount: row.CODMaxOrderAmount, Fee: row.CODFee,
		FeeGSTRate: row.CODFeeGSTRate, MaxOpenPerCustomer: row.CODMaxOpenPerCustomer, ZoneIDs: []uuid.UUID{},
		Confirmation: row.CODConfirmation, ConfirmAbove: row.CODConfirmAbove, ConfirmFirstOrder: row.CODConfirmFirstOrder,
		BlockedPincodes: append([]string{}, row.CODBlockedPincodes...)}
	for _, z := range row.CODZoneIDs {
		if id, err := uuid.Parse(z); err == nil {
			c.ZoneIDs = append(c.ZoneIDs, id)
		}
	}
	return &Settings{COD: c}, nil
}

// Check validates in. Errors: VALIDATION_ERROR naming the field
// (cod.fee, cod.feeGstRate, ...).
func (in *Settings) Check() error {
	c := in.COD
	switch {
	case c.MaxOrderAmount < 0 || c.MaxOrderAmount > money.MaxAmount:
		return apperr.Invalid("cod.maxOrderAmount", "must be 0 (no limit) or a positive amount")
	case c.Fee < 0 || c.Fee > money.MaxAmount:
		return apperr.Invalid("cod.fee", "must be 0 or a positive amount")
	case c.FeeGSTRate < 0 || c.FeeGSTRate > 2800:
		return apperr.Invalid("cod.feeGstRate", "must be a GST rate from 0 to 28 percent")
	case c.MaxOpenPerCustomer < 0 || c.MaxOpenPerCustomer > maxCap:
		return apperr.Invalid("cod.maxOpenPerCustomer", "must be 0 to 1000")
	case len(c.ZoneIDs) > 100:
		return apperr.Invalid("cod.zoneIds", "must name at most 100 zones")
	case c.MaxOrderAmount > 0 && c.Fee >= c.MaxOrderAmount:
		return apperr.Invalid("cod.fee", "must be below maxOrderAmount: no order could pay on delivery")
	}
	return in.checkConfirmation()
}

// Put validates in and makes it the store's payment settings; checkouts
// from then on follow it. Every zone named must exist. Errors:
// VALIDATION_ERROR.
func (s *Service) Put(ctx context.Context, in Settings) (*Settings, error) {
	if in.COD.ZoneIDs == nil {
		in.COD.ZoneIDs = []uuid.UUID{}
	}
	if in.COD.Confirmation == "" {
		in.COD.Confirmation = ConfirmNone
	}
	in.COD.BlockedPincodes = normalPincodes(in.COD.BlockedPincodes)
	if err := in.Check(); err != nil {
		return nil, err
	}
	db := s.db.WithContext(ctx)
	zones := make(models.StringArray, 0, len(in.COD.ZoneIDs))
	seen := map[uuid.UUID]bool{}
	for _, z := range in.COD.ZoneIDs {
		if !seen[z] {
			seen[z] = true
			zones = append(zones, z.String())
		}
	}
	if len(zones) > 0 {
		var n int64
		if err := db.Model(&models.ShippingZone{}).Where("id IN ?", in.COD.ZoneIDs).Count(&n).Error; err != nil {
			return nil, database.Translate(err, "payment settings")
		}
		if int(n) != len(zones) {
			return nil, apperr.Invalid("cod.zoneIds", "names a shipping zone that does not exist")
		}
	}
	row := models.PaymentSettings{ID: 1, CODEnabled: in.COD.Enabled, CODMaxOrderAmount: in.COD.MaxOrderAmount,
		CODFee: in.COD.Fee, CODFeeGSTRate: in.COD.FeeGSTRate, CODZoneIDs: zones,
		CODMaxOpenPerCustomer: in.COD.MaxOpenPerCustomer, CODConfirmation: in.COD.Confirmation,
		CODConfirmAbove: in.COD.ConfirmAbove, CODConfirmFirstOrder: in.COD.ConfirmFirstOrder,
		CODBlockedPincodes: models.StringArray(in.COD.BlockedPincodes), UpdatedAt: time.Now().UTC()}
	err := db.Clauses(clause.OnConflict{
		Columns: []clause.Column{{Name: "id"}},
		DoUpdates: clause.AssignmentColumns([]string{"cod_enabled", "cod_max_order_amount", "cod_fee", "cod_fee_gst_rate",
			"cod_zone_ids", "cod_max_open_per_customer", "cod_confirmation", "cod_confirm_above", "cod_confirm_first_order",
			"cod_blocked_pincodes", "updated_at"}),
	}).Create(&row).Error
	if err != nil {
		return nil, database.Translate(err, "payment settings")
	}
	return load(db)
}

// Quote decides q for GET /cart/payment-options (Decide without locks).
func (s *Service) Quote(ctx context.Context, q Quote) (Decision, error) {
	d, err := Decide(s.db.WithContext(ctx), q, false)
	if err != nil {
		return Decision{}, database.Translate(err, "payment settings")
	}
	return d, nil
}

// Fee is the fee a cash on delivery order adds to its total (its GST
// included), as the settings in db say: a draft shows staff the total a
// COD completion will charge before they choose it.
func Fee(db *gorm.DB) (money.Amount, error) {
	set, err := load(db)
	if err != nil {
		return 0, fmt.Errorf("cod.fee: %w", err)
	}
	return set.COD.Fee, nil
}
