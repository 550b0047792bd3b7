package shipment

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/courier"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// courierError maps a failed courier call: its refusal is a CONFLICT with
// the courier's message, anything else SERVICE_UNAVAILABLE.
func courierError(err error) error {
	if r := courier.Refused(err); r != nil {
		return apperr.Wrap(apperr.Conflict, "the courier refused: "+r.Message, err)
	}
	if errors.Is(err, courier.ErrNotConfigured) {
		return apperr.Wrap(apperr.Conflict, "no courier is configured (CARRIER=manual)", err)
	}
	return apperr.Wrap(apperr.Unavailable, "the courier did not answer; try again", err)
}

// booked reads the shipment of fulfilment id of order orderID (uuid.Nil:
// any order), which must have its AWB. Errors: NOT_FOUND, CONFLICT (not
// booked with a courier, or not yet).
func (s *Service) booked(ctx context.Context, orderID, id uuid.UUID) (*models.Shipment, error) {
	var f models.Fulfillment
	q := s.db.WithContext(ctx).Preload("Shipment")
	if orderID != uuid.Nil {
		q = q.Where("order_id = ?", orderID)
	}
	if err := q.Take(&f, "id = ?", id).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, apperr.Missing("fulfillment")
		}
		return nil, fmt.Errorf("shipment.booked: %w", err)
	}
	if f.Shipment == nil {
		return nil, apperr.Conflictf("fulfilment %s is not booked with a courier", id).WithDetails(map[string]any{"fulfillmentId": id})
	}
	if f.Shipment.AWB == nil {
		return nil, apperr.Conflictf("fulfilment %s is not booked yet (its shipment is %s)", id, f.Shipment.Status).
			WithDetails(map[string]any{"fulfillmentId": id, "status": f.Shipment.Status, "lastError": f.Shipment.LastError})
	}
	return f.Shipment, nil
}

// Label is the label PDF of fulfilment id of order orderID, made by the
// courier (again when its link no longer answers). Errors: NOT_FOUND,
// CONFLICT (not booked), SERVICE_UNAVAILABLE.
func (s *Service) Label(ctx context.Context, orderID, id uuid.UUID) ([]byte, error) {
	sh, err := s.booked(ctx, orderID, id)
	if err != nil {
		return nil, err
	}
	if sh.LabelURL != "" {
		if pdf, err := s.courier.Download(ctx, sh.LabelURL); err == nil {
			return pdf, nil
		}
	}
	return s.Labels(ctx, []uuid.UUID{id})
}

// Labels is one PDF of the labels of fulfilments ids, in that order.
// Errors: NOT_FOUND, CONFLICT (one not booked), SERVICE_UNAVAILABLE.
func (s *Service) Labels(ctx context.Context, ids []uuid.UUID) ([]byte, error) {
	shipmentIDs := make([]string, len(ids))
	for i, id := range ids {
		sh, err := s.booked(ctx, uuid.Nil, id)
		if err != nil {
			return nil, err
		}
		shipmentIDs[i] = *sh.CourierShipmentID
	}
	url, err := s.courier.Label(ctx, shipmentIDs)
	if err != nil {
		return nil, courierError(err)
	}
	if len(ids) == 1 {
		s.db.WithContext(ctx).Model(&models.Shipment{}).Where("fulfillment_id = ?", ids[0]).Update("label_url", url)
	}
	pdf, err := s.courier.Download(ctx, url)
	if err != nil {
		return nil, courierError(err)
	}
	return pdf, nil
}

// Pickup is a scheduled pickup and its manifest.
type Pickup struct {
	ScheduledFor time.Time
	ManifestURL  string
	Shipments    []models.Shipment
}

// SchedulePickup asks the courier to collect the parcels of fulfilments
// ids and has their manifest made. Every one must be booked and not yet
// picked up. Errors: NOT_FOUND, CONFLICT (one not booked, or picked up
// already; the courier refusing), SERVICE_UNAVAILABLE.
func (s *Service) SchedulePickup(ctx context.Context, ids []uuid.UUID) (*Pickup, error) {
	shipmentIDs := make([]string, len(ids))
	p := &Pickup{}
	for i, id := range ids {
		sh, err := s.booked(ctx, uuid.Nil, id)
		if err != nil {
			return nil, err
		}
		if sh.Status != courier.StatusBooked {
			return nil, apperr.Conflictf("fulfilment %s is %s: the courier has it already", id, sh.Status).
				WithDetails(map[string]any{"fulfillmentId": id, "status": sh.Status})
		}
		shipmentIDs[i] = *sh.CourierShipmentID
		p.Shipments = append(p.Shipments, *sh)
	}
	at, err := s.courier.SchedulePickup(ctx, shipmentIDs)
	if err != nil {
		return nil, courierError(err)
	}
	p.ScheduledFor = at
	if err := s.db.WithContext(ctx).Model(&models.Shipment{}).Where("fulfillment_id IN ?", ids).
		Updates(map[string]any{"pickup_scheduled_for": at, "updated_at": s.now()}).Error; err != nil {
		return nil, fmt.Errorf("shipment.pickup: %w", err)
	}
	if p.ManifestURL, err = s.courier.Manifest(ctx, shipmentIDs); err != nil {
		return nil, courierError(err)
	}
	if err := s.db.WithContext(ctx).Model(&models.Shipment{}).Where("fulfillment_id IN ?", ids).
		Update("manifest_url", p.ManifestURL).Error; err != nil {
		return nil, fmt.Errorf("shipment.pickup: %w", err)
	}
	for i := range p.Shipments {
		p.Shipments[i].PickupScheduledFor, p.Shipments[i].ManifestURL = &at, p.ManifestURL
	}
	return p, nil
}

// NDR is a shipment the courier failed to deliver, waiting for a decision.
type NDR struct {
	models.Shipment
	OrderNumber string
	LastEvent   *models.ShipmentEvent `gorm:"-"`
}

// NDRs lists the undelivered shipments, the longest waiting first, and
// their count.
func (s *Service) NDRs(ctx context.Context, w paging.Window) ([]NDR, int64, error) {
	db := s.db.WithContext(ctx)
	var total int64
	if err := db.Model(&models.Shipment{}).Where("status = ?", courier.StatusUndelivered).Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("shipment.ndrs: %w", err)
	}
	var out []NDR
	if err := db.Raw(`SELECT s.*, o.order_number FROM shipments s JOIN orders o ON o.id = s.order_id
		WHERE s.status = ? ORDER BY s.last_scan_at, s.fulfillment_id LIMIT ? OFFSET ?`,
		courier.StatusUndelivered, w.Limit, w.Offset).Scan(&out).Error; err != nil {
		return nil, 0, fmt.Errorf("shipment.ndrs: %w", err)
	}
	for i := range out {
		var e models.ShipmentEvent
		if err := db.Where("fulfillment_id = ?", out[i].FulfillmentID).Order("at DESC, id DESC").Take(&e).Error; err == nil {
			out[i].LastEvent = &e
		}
	}
	return out, total, nil
}

// DecideNDR sends the courier the decision on undelivered fulfilment id
// of order orderID. Errors: NOT_FOUND, CONFLICT (not undelivered; the
// courier refusing), SERVICE_UNAVAILABLE.
func (s *Service) DecideNDR(ctx context.Context, orderID, id uuid.UUID, a courier.NDRAction) (*models.Shipment, error) {
	sh, err := s.booked(ctx, orderID, id)
	if err != nil {
		return nil, err
	}
	if sh.Status != courier.StatusUndelivered {
		return nil, apperr.Conflictf("fulfilment %s is %s, not undelivered", id, sh.Status).
			WithDetails(map[string]any{"status": sh.Status, "allowed": []string{courier.StatusUndelivered}})
	}
	if err := s.courier.NDRAction(ctx, *sh.AWB, a); err != nil {
		return nil, courierError(err)
	}
	return sh, nil
}
