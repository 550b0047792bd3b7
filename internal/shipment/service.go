// Package shipment hands fulfilments to the courier and follows them
// (docs/DECISIONS.md "Couriers"): serviceability by pincode, the booking
// (a worker task that never books twice), labels, pickups and manifests,
// the tracking webhook's scans (normalised, de-duplicated, never moving a
// shipment back; a delivery or a return to origin drives the fulfilment),
// and the NDR queue. The courier is a courier.Courier; with the manual one
// nothing here is called but the webhook, which refuses every request.
package shipment

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/courier"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
	"gorm.io/gorm"
)

// Fulfillments is what a scan does to a fulfilment (package fulfillment).
type Fulfillments interface {
	// Deliver marks a shipped fulfilment delivered (and its order, when
	// nothing else is live). Errors: CONFLICT when it is not shipped.
	Deliver(ctx context.Context, orderID, id uuid.UUID, by audit.Actor) (*models.Fulfillment, error)
	// ReturnToOrigin takes a shipped fulfilment back: units on hand, credit
	// note, order cancelled when nothing else is live. Errors: CONFLICT
	// when it is not shipped.
	ReturnToOrigin(ctx context.Context, orderID, id uuid.UUID, by audit.Actor) (*models.Fulfillment, error)
}

// Settings are the service's settings.
type Settings struct {
	// WebhookToken is what the courier sends in X-Api-Key
	// (CARRIER_WEBHOOK_TOKEN).
	WebhookToken string
	// CacheTTL is how long a serviceability answer is kept.
	CacheTTL time.Duration
	// CachePrefix prefixes the cache's keys.
	CachePrefix string
	// StaleDays and RemitDays are reconcile's thresholds
	// (SHIPMENT_STALE_DAYS, COD_REMIT_DAYS).
	StaleDays, RemitDays int
}

// Service books and tracks shipments.
type Service struct {
	db           *gorm.DB
	courier      courier.Courier
	cache        *redis.Client
	queue        tasks.Enqueuer
	fulfillments Fulfillments
	log          *slog.Logger
	set          Settings
	now          func() time.Time
	// origins keeps the last origin read (*cachedOrigin).
	origins atomic.Value
	// messages stages the customer's message a scan asks for; nil: none.
	messages ScanMessages
	// runner runs a waiting booking now (EwayBillGenerated); nil: none.
	runner TaskRunner
}

// ScanMessages stages, in the unit applying a scan, the message to the
// customer the scan asks for: out for delivery, or what to do after a
// failed delivery (messaging.Service).
type ScanMessages interface {
	StageShipmentScan(u *uow.Unit, scan messaging.ShipmentScan) error
}

// WithScanMessages has applied scans message the customer through m.
func (s *Service) WithScanMessages(m ScanMessages) *Service {
	s.messages = m
	return s
}

// New returns the service.
func New(db *gorm.DB, c courier.Courier, cache *redis.Client, queue tasks.Enqueuer, f Fulfillments, set Settings,
	log *slog.Logger) *Service {
	if set.CacheTTL <= 0 {
		set.CacheTTL = 6 * time.Hour
	}
	return &Service{db: db, courier: c, cache: cache, queue: queue, fulfillments: f, set: set, log: log,
		now: func() time.Time { return time.Now().UTC() }}
}

// Configured reports whether a courier books shipments (CARRIER is not
// manual).
func (s *Service) Configured() bool { return courier.Configured(s.courier) }

// Courier is the configured courier.
func (s *Service) Courier() courier.Courier { return s.courier }

// CustomerPincode is the pincode of customer customerID's address id.
// Errors: VALIDATION_ERROR naming field (not the customer's).
func (s *Service) CustomerPincode(ctx context.Context, customerID, id uuid.UUID, field string) (string, error) {
	_, a, err := customer.OwnAddress(s.db.WithContext(ctx), customerID, id, field)
	return a.Pincode, err
}
