package shipment

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/courier"
	"github.com/google/uuid"
)

var pincodePattern = regexp.MustCompile(`^[1-9][0-9]{5}$`)

// origin is the location parcels leave from, as serviceability is asked:
// the active location selling online with a pickup code and the lowest
// priority number.
type origin struct {
	ID      uuid.UUID
	Pincode string
}

func (s *Service) origin(ctx context.Context) (*origin, error) {
	// Read at most every originTTL: every checkout asks it.
	if c, ok := s.origins.Load().(*cachedOrigin); ok && s.now().Before(c.until) {
		return c.origin, nil
	}
	o, err := s.readOrigin(ctx)
	if err == nil {
		s.origins.Store(&cachedOrigin{origin: o, until: s.now().Add(originTTL)})
	}
	return o, err
}

// originTTL is how long the origin read is kept in the process: a pickup
// code set or removed takes effect within it.
const originTTL = 10 * time.Second

type cachedOrigin struct {
	origin *origin
	until  time.Time
}

func (s *Service) readOrigin(ctx context.Context) (*origin, error) {
	var rows []origin
	err := s.db.WithContext(ctx).Raw(`SELECT id, address->>'pincode' AS pincode FROM locations
		WHERE is_active AND fulfils_online AND coalesce(pickup_code, '') <> '' AND coalesce(address->>'pincode', '') <> ''
		ORDER BY priority, created_at, id LIMIT 1`).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("shipment.origin: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return &rows[0], nil
}

// Serviceability is the courier's answer for delivering to pincode from
// the location parcels leave from, cached per pincode and location. It is
// nil when nothing is to be asked: no courier, or no location with a
// pickup code. Errors: VALIDATION_ERROR naming field (not six digits),
// SERVICE_UNAVAILABLE (the courier did not answer).
func (s *Service) Serviceability(ctx context.Context, field, pincode string) (*courier.Serviceability, error) {
	if !pincodePattern.MatchString(pincode) {
		return nil, apperr.Invalid(field, "must be six digits")
	}
	if !s.Configured() {
		return nil, nil
	}
	from, err := s.origin(ctx)
	if err != nil || from == nil {
		return nil, err
	}
	key := s.set.CachePrefix + "courier:serviceability:" + from.ID.String() + ":" + pincode
	if raw, err := s.cache.Get(ctx, key).Bytes(); err == nil {
		var a courier.Serviceability
		if json.Unmarshal(raw, &a) == nil {
			return &a, nil
		}
	}
	a, err := s.courier.Serviceability(ctx, from.Pincode, pincode)
	if err != nil {
		s.log.Warn("courier serviceability not answered", "err", err)
		return nil, apperr.Wrap(apperr.Unavailable, "the courier did not answer; try again", err)
	}
	if raw, err := json.Marshal(a); err == nil {
		if err := s.cache.Set(ctx, key, raw, s.set.CacheTTL).Err(); err != nil {
			s.log.Warn("courier serviceability not cached", "err", err)
		}
	}
	return &a, nil
}

// CheckDeliverable refuses a checkout to pincode the courier cannot serve
// (VALIDATION_ERROR naming shippingAddress.pincode) and answers the
// courier's answer for the COD decision. A courier that does not answer
// does not stop the checkout: nil, as without a courier.
func (s *Service) CheckDeliverable(ctx context.Context, pincode string) (*courier.Serviceability, error) {
	if !s.Configured() {
		return nil, nil
	}
	a, err := s.Serviceability(ctx, "shippingAddress.pincode", pincode)
	if e, ok := err.(*apperr.Error); ok && e.Code == apperr.Validation {
		return nil, err
	}
	if err != nil || a == nil {
		return nil, nil
	}
	if !a.Serviceable {
		return nil, apperr.Invalid("shippingAddress.pincode", "the courier does not deliver to this pincode")
	}
	return a, nil
}
