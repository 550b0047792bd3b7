package reconcile

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// ShipmentThresholds are how late a shipment is reported
// (docs/DECISIONS.md "Couriers"): no scan for StaleDays
// (SHIPMENT_STALE_DAYS), and a COD parcel delivered RemitDays ago
// (COD_REMIT_DAYS) whose money the courier has not remitted.
type ShipmentThresholds struct {
	StaleDays, RemitDays int
}

// WithShipmentThresholds sets the thresholds of the shipments step; zero
// days skips its check.
func (s *Service) WithShipmentThresholds(t ShipmentThresholds) *Service { s.shipments = t; return s }

// shipmentsSQL finds shipments to chase: with the courier and not scanned
// since ? (the booking counts as a scan), never booked an hour after the
// fulfilment, and COD parcels delivered before ? still unpaid.
const shipmentsSQL = `
	SELECT 'shipment_stale' AS kind, s.fulfillment_id AS entity,
	       format('order %s AWB %s: %s, no scan since %s', o.order_number, s.awb, s.status,
	              to_char(coalesce(s.last_scan_at, s.updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI')) AS detail
	FROM shipments s JOIN orders o ON o.id = s.order_id
	WHERE s.status IN ('booked', 'picked_up', 'in_transit', 'out_for_delivery', 'undelivered', 'rto_initiated', 'rto_in_transit')
	  AND coalesce(s.last_scan_at, s.updated_at) < ?
	UNION ALL
	SELECT 'shipment_not_booked', s.fulfillment_id,
	       format('order %s: the courier booking is %s %s', o.order_number, s.status, s.last_error)
	FROM shipments s JOIN orders o ON o.id = s.order_id
	WHERE s.status IN ('pending', 'failed') AND s.created_at < ?
	UNION ALL
	SELECT 'cod_not_remitted', o.id,
	       format('order %s: COD delivered %s (AWB %s), %s paise not remitted', o.order_number,
	              to_char(f.delivered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), s.awb, o.total - o.paid_total)
	FROM shipments s JOIN fulfillments f ON f.id = s.fulfillment_id JOIN orders o ON o.id = s.order_id
	WHERE f.status = 'delivered' AND f.delivered_at < ? AND o.payment_method = 'cod' AND o.payment_status = 'pending'`

// shipmentsStep reports the shipments to chase as problems for a person:
// the courier is asked, not the database.
func (s *Service) shipmentsStep(ctx context.Context, r *Report) error {
	t := s.shipments
	if t.StaleDays <= 0 || t.RemitDays <= 0 {
		return nil
	}
	now := s.now()
	var rows []struct {
		Kind   string
		Entity uuid.UUID
		Detail string
	}
	if err := s.db.WithContext(ctx).Raw(shipmentsSQL, now.AddDate(0, 0, -t.StaleDays), now.Add(-time.Hour),
		now.AddDate(0, 0, -t.RemitDays)).Scan(&rows).Error; err != nil {
		return fmt.Errorf("shipments: %w", err)
	}
	for _, row := range rows {
		r.Problems = append(r.Problems, Problem{Kind: row.Kind, Entity: row.Entity.String(), Detail: row.Detail})
	}
	return nil
}
