package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// GST rate changes on a date (docs/DECISIONS.md "GST rate changes on a
// date"): an administrator schedules the rate of the products of an HSN
// prefix, or of products named by id, from a date; at 00:00 India Standard
// Time of that date ApplyDueRateChanges (the scheduler's job) sets it. A
// cart priced after that reads the new rate; an order keeps the rate of its
// lines and a document its order's, so nothing sold before changes.

// Rate change statuses.
const (
	RateChangePending   = "pending"
	RateChangeApplied   = "applied"
	RateChangeWithdrawn = "withdrawn"
)

// IST is India Standard Time, in which a rate change takes effect. A fixed
// zone: India keeps no daylight saving, and the binary needs no tz data.
var IST = time.FixedZone("IST", 5*3600+1800)

var hsnPrefixPattern = regexp.MustCompile(`^[0-9]{2,8}$`)

// RateChange is a scheduled GST rate change.
type RateChange struct {
	ID         uuid.UUID   `json:"id"`
	HSNPrefix  *string     `json:"hsnPrefix"`
	ProductIDs []uuid.UUID `json:"productIds"`
	GSTRate    money.Rate  `json:"gstRate"`
	// EffectiveFrom is the date (IST) from whose 00:00 the rate applies.
	EffectiveFrom string `json:"effectiveFrom"`
	Status        string `json:"status"`
	// ProductsChanged is how many products the change set, once applied.
	ProductsChanged *int       `json:"productsChanged"`
	CreatedAt       time.Time  `json:"createdAt"`
	AppliedAt       *time.Time `json:"appliedAt"`
}

// RateChangeInput is a new rate change: HSNPrefix or ProductIDs, not both.
type RateChangeInput struct {
	HSNPrefix     string
	ProductIDs    []uuid.UUID
	GSTRate       money.Rate
	EffectiveFrom string
	AdminID       *uuid.UUID
}

// rateChangeRow is a gst_rate_changes row.
type rateChangeRow struct {
	ID              uuid.UUID
	HSNPrefix       *string
	ProductIDs      models.JSON
	GSTRate         money.Rate
	EffectiveFrom   time.Time
	Status          string
	ProductsChanged *int
	CreatedBy       *uuid.UUID
	CreatedAt       time.Time
	AppliedAt       *time.Time
	WithdrawnAt     *time.Time
}

func (rateChangeRow) TableName() string { return "gst_rate_changes" }

func (r *rateChangeRow) view() (RateChange, error) {
	out := RateChange{ID: r.ID, HSNPrefix: r.HSNPrefix, GSTRate: r.GSTRate, EffectiveFrom: r.EffectiveFrom.Format(time.DateOnly),
		Status: r.Status, ProductsChanged: r.ProductsChanged, CreatedAt: r.CreatedAt.UTC(), AppliedAt: r.AppliedAt}
	if len(r.ProductIDs) > 0 && string(r.ProductIDs) != "null" {
		if err := json.Unmarshal(r.ProductIDs, &out.ProductIDs); err != nil {
			return out, fmt.Errorf("catalog.rate_change: product ids: %w", err)
		}
	}
	if out.AppliedAt != nil {
		t := out.AppliedAt.UTC()
		out.AppliedAt = &t
	}
	return out, nil
}

// today is the date in India at now.
func today(now time.Time) time.Time {
	y, m, d := now.In(IST).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func (in RateChangeInput) check(now time.Time) (time.Time, error) {
	switch {
	case in.HSNPrefix != "" && in.ProductIDs != nil:
		return time.Time{}, apperr.Invalid("hsnPrefix", "give hsnPrefix or productIds, not both")
	case in.HSNPrefix == "" && len(in.ProductIDs) == 0:
		return time.Time{}, apperr.Invalid("hsnPrefix", "give hsnPrefix (2 to 8 digits) or productIds")
	case in.HSNPrefix != "" && !hsnPrefixPattern.MatchString(in.HSNPrefix):
		return time.Time{}, apperr.Invalid("hsnPrefix", "must be 2 to 8 digits")
	case len(in.ProductIDs) > MaxListIDs:
		return time.Time{}, apperr.Invalid("productIds", fmt.Sprintf("must name 1 to %d products", MaxListIDs))
	}
	for i, id := range in.ProductIDs {
		if slices.Contains(in.ProductIDs[:i], id) {
			return time.Time{}, apperr.Invalid(fmt.Sprintf("productIds[%d]", i), "names a product already listed")
		}
	}
	if err := CheckGSTRate(in.GSTRate); err != nil {
		return time.Time{}, err
	}
	day, err := time.Parse(time.DateOnly, in.EffectiveFrom)
	if err != nil {
		return time.Time{}, apperr.Invalid("effectiveFrom", "must be a date, YYYY-MM-DD")
	}
	if day.Before(today(now)) {
		return time.Time{}, apperr.Invalid("effectiveFrom", "must not be in the past (India Standard Time)")
	}
	return day, nil
}

// ScheduleRateChange stores a pending rate change. Errors: VALIDATION_ERROR (hsnPrefix, productIds naming no
// product, gstRate, effectiveFrom missing or in the past).
func (s *Service) ScheduleRateChange(ctx context.Context, in RateChangeInput) (*RateChange, error) {
	now := s.now()
	if ref, ok := idempotency.RecordedChange(ctx); ok {
		return s.rateChange(ctx, ref)
	}
	day, err := in.check(now)
	if err != nil {
		return nil, err
	}
	row := rateChangeRow{ID: uuid.New(), GSTRate: in.GSTRate, EffectiveFrom: day, Status: RateChangePending,
		CreatedBy: in.AdminID, CreatedAt: now.UTC().Truncate(time.Microsecond)} // as Postgres keeps it
	if in.HSNPrefix != "" {
		row.HSNPrefix = &in.HSNPrefix
	} else {
		row.ProductIDs, _ = json.Marshal(in.ProductIDs)
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if in.ProductIDs != nil {
			var found []uuid.UUID
			if err := tx.Model(&models.Product{}).Where("id IN ?", in.ProductIDs).Pluck("id", &found).Error; err != nil {
				return err
			}
			for i, id := range in.ProductIDs {
				if !slices.Contains(found, id) {
					return unknownRef(fmt.Sprintf("productIds[%d]", i))
				}
			}
		}
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		return idempotency.RecordChange(uow.Within(ctx, tx), row.ID.String())
	})
	if err != nil {
		return nil, translate(err, "rate change")
	}
	v, err := row.view()
	return &v, err
}

func (s *Service) rateChange(ctx context.Context, ref string) (*RateChange, error) {
	var row rateChangeRow
	if err := s.db.WithContext(ctx).Where("id = ?", ref).Take(&row).Error; err != nil {
		return nil, translate(err, "rate change")
	}
	v, err := row.view()
	return &v, err
}

// ListRateChanges lists the rate changes, the latest effective first.
func (s *Service) ListRateChanges(ctx context.Context) ([]RateChange, error) {
	var rows []rateChangeRow
	if err := s.db.WithContext(ctx).Order("effective_from DESC, created_at DESC, id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("catalog.rate_changes: %w", err)
	}
	out := make([]RateChange, len(rows))
	for i := range rows {
		v, err := rows[i].view()
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// WithdrawRateChange withdraws pending change id; withdrawing one already
// withdrawn changes nothing. Errors: NOT_FOUND, CONFLICT (already applied).
func (s *Service) WithdrawRateChange(ctx context.Context, id uuid.UUID) error {
	now := s.now()
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var row rateChangeRow
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).Take(&row).Error; err != nil {
			return translate(err, "rate change")
		}
		switch row.Status {
		case RateChangeWithdrawn:
			return nil
		case RateChangeApplied:
			return apperr.Conflictf("the rate change was applied on %s; schedule another to change the rate again",
				row.AppliedAt.In(IST).Format(time.DateOnly))
		}
		return tx.Model(&rateChangeRow{}).Where("id = ?", id).
			Updates(map[string]any{"status": RateChangeWithdrawn, "withdrawn_at": now.UTC()}).Error
	})
}

// matchSQL selects the products change c (aliased c) names, for products
// aliased p. The prefix is digits only (checked), so LIKE needs no escape;
// jsonb_exists is the ? operator, which GORM would take for a placeholder.
const matchSQL = `((c.hsn_prefix IS NOT NULL AND p.hsn_code LIKE c.hsn_prefix || '%') OR jsonb_exists(c.product_ids, p.id::text))`

// ScheduledRate is the rate a pending change will give a product.
type ScheduledRate struct {
	Rate          money.Rate `json:"rate"`
	EffectiveFrom string     `json:"effectiveFrom"`
}

// ScheduledRates returns, for the products ids, the earliest pending
// change that names each (none: absent).
func (s *Service) ScheduledRates(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]ScheduledRate, error) {
	out := map[uuid.UUID]ScheduledRate{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ProductID     uuid.UUID
		GSTRate       money.Rate
		EffectiveFrom time.Time
	}
	err := s.db.WithContext(ctx).Raw(`SELECT DISTINCT ON (p.id) p.id AS product_id, c.gst_rate, c.effective_from
		FROM products p JOIN gst_rate_changes c ON c.status = 'pending' AND `+matchSQL+`
		WHERE p.id IN ? ORDER BY p.id, c.effective_from, c.created_at`, ids).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("catalog.scheduled_rates: %w", err)
	}
	for _, r := range rows {
		out[r.ProductID] = ScheduledRate{Rate: r.GSTRate, EffectiveFrom: r.EffectiveFrom.Format(time.DateOnly)}
	}
	return out, nil
}

// AppliedRateChange is what ApplyDueRateChanges did with one change.
type AppliedRateChange struct {
	ID       uuid.UUID
	Products int
}

// errNoneDue ends the loop of ApplyDueRateChanges.
var errNoneDue = errors.New("no rate change due")

// ApplyDueRateChanges applies, oldest date first, every pending change
// whose date has begun in India at now (the job's tick time: the clock is
// the caller's, so a test can run tomorrow's job today): one transaction each, which sets
// the rate of the products it names, marks it applied and writes its
// audit entry. A change is taken FOR UPDATE SKIP LOCKED and only while
// pending, so two schedulers, or the job run twice, apply it once.
func (s *Service) ApplyDueRateChanges(ctx context.Context, now time.Time) ([]AppliedRateChange, error) {
	var done []AppliedRateChange
	for {
		var applied AppliedRateChange
		err := s.tx(ctx, func(tx *gorm.DB) error {
			var row rateChangeRow
			q := tx.Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"}).
				Where("status = ? AND effective_from <= ?", RateChangePending, today(now)).
				Order("effective_from, created_at, id").Limit(1).Find(&row)
			switch {
			case q.Error != nil:
				return q.Error
			case q.RowsAffected == 0:
				return errNoneDue
			}
			res := tx.Exec(`UPDATE products p SET gst_rate = c.gst_rate, updated_at = ?
				FROM gst_rate_changes c WHERE c.id = ? AND `+matchSQL+` AND p.gst_rate <> c.gst_rate`, now.UTC(), row.ID)
			if res.Error != nil {
				return res.Error
			}
			n := int(res.RowsAffected)
			if err := tx.Model(&rateChangeRow{}).Where("id = ? AND status = ?", row.ID, RateChangePending).
				Updates(map[string]any{"status": RateChangeApplied, "applied_at": now.UTC(), "products_changed": n}).Error; err != nil {
				return err
			}
			v, err := row.view()
			if err != nil {
				return err
			}
			// No administrator: the scheduler applies what one scheduled
			// (the tax.rate_change_create entry names them).
			if err := audit.Record(ctx, tx, audit.Entry{Action: "tax.rate_change_apply", EntityID: row.ID.String(),
				Metadata: map[string]any{"gstRate": row.GSTRate.String(), "effectiveFrom": v.EffectiveFrom,
					"hsnPrefix": row.HSNPrefix, "productIds": v.ProductIDs, "productsChanged": n}}); err != nil {
				return err
			}
			applied = AppliedRateChange{ID: row.ID, Products: n}
			return nil
		})
		if errors.Is(err, errNoneDue) {
			return done, nil
		}
		if err != nil {
			return done, fmt.Errorf("catalog.apply_rate_changes: %w", err)
		}
		done = append(done, applied)
	}
}
