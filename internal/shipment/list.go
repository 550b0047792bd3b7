package shipment

import (
	"context"
	"fmt"
	"slices"

	"github.com/gocommerce/shop/internal/courier"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/models"
)

// Statuses are the statuses a shipment may have: before the AWB (pending,
// failed) and every status a scan normalises to.
var Statuses = slices.Concat([]string{courier.StatusPending, courier.StatusFailed}, courier.ScanStatuses)

// Listed is a shipment as the back office lists it, with its order's
// number and the customer's name (what staff match a parcel by).
type Listed struct {
	models.Shipment
	OrderNumber  string
	CustomerName string `gorm:"column:customer_name"`
}

// List lists the shipments in status, the oldest first (the parcel waiting
// longest is labelled and picked up first), and their count. status is one
// of Statuses (the caller checks): the list always reads one status, so it
// walks shipments_status_idx and never sorts the whole table.
func (s *Service) List(ctx context.Context, status string, w paging.Window) ([]Listed, int64, error) {
	db := s.db.WithContext(ctx)
	var total int64
	if err := db.Model(&models.Shipment{}).Where("status = ?", status).Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("shipment.list: %w", err)
	}
	out := []Listed{}
	if err := db.Raw(`SELECT s.*, o.order_number, o.name AS customer_name FROM shipments s JOIN orders o ON o.id = s.order_id
		WHERE s.status = ? ORDER BY s.created_at, s.fulfillment_id LIMIT ? OFFSET ?`,
		status, w.Limit, w.Offset).Scan(&out).Error; err != nil {
		return nil, 0, fmt.Errorf("shipment.list: %w", err)
	}
	return out, total, nil
}

// Setup is how the courier is configured, as the back office shows it:
// the configuration is the process's (CARRIER and its variables, read once
// at start), so it is read here and changed by a restart, never by a
// request.
type Setup struct {
	// Carrier is CARRIER: manual, shiprocket or simulator.
	Carrier string
	// Books is whether fulfilments from a location with a pickup code are
	// booked with it (false for manual).
	Books bool
	// WebhookTokenSet is whether CARRIER_WEBHOOK_TOKEN is set: without it
	// every tracking webhook is refused.
	WebhookTokenSet bool
	// StaleDays and RemitDays are reconcile's thresholds.
	StaleDays, RemitDays int
}

// Setup answers how the courier is configured.
func (s *Service) Setup() Setup {
	return Setup{Carrier: s.courier.Name(), Books: s.Configured(), WebhookTokenSet: s.set.WebhookToken != "",
		StaleDays: s.set.StaleDays, RemitDays: s.set.RemitDays}
}
