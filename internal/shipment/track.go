package shipment

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/courier"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Outcomes of a scan.
const (
	// Applied: the scan moved the shipment.
	Applied = "applied"
	// Recorded: kept in the shipment's events only (a late scan).
	Recorded = "recorded"
	// Duplicate: this AWB, status and time was received before.
	Duplicate = "duplicate"
	// UnknownAWB: no shipment has this AWB.
	UnknownAWB = "unknown_awb"
)

// Authentic reports whether token is the courier's webhook token
// (CARRIER_WEBHOOK_TOKEN), compared in constant time; with no token set
// nothing is.
func (s *Service) Authentic(token string) bool {
	return s.set.WebhookToken != "" && subtle.ConstantTimeCompare([]byte(token), []byte(s.set.WebhookToken)) == 1
}

// Track applies a tracking webhook's body: one scan, normalised. It is
// kept once (by AWB, status and time) and moves the shipment only forward
// (courier.Advances); a delivered scan delivers the fulfilment and an
// rto_delivered one returns it to origin, through package fulfillment,
// before the scan is recorded, so a crash between the two is finished by
// the courier's retry of the same scan. Errors: VALIDATION_ERROR (a body
// that is not a scan).
func (s *Service) Track(ctx context.Context, raw []byte) (string, error) {
	sc, err := courier.ParseWebhook(raw)
	if errors.Is(err, courier.ErrUnknownStatus) {
		s.log.Info("courier scan of an unknown status kept out", "awb", sc.AWB, "status", sc.Label)
		return Recorded, nil
	}
	if err != nil {
		return "", apperr.Invalid("body", "is not a tracking update: "+err.Error())
	}
	return s.Apply(ctx, sc)
}

// Apply applies scan sc (see Track).
func (s *Service) Apply(ctx context.Context, sc courier.Scan) (string, error) {
	db := s.db.WithContext(ctx)
	var sh models.Shipment
	if err := db.Take(&sh, "awb = ?", sc.AWB).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			s.log.Info("courier scan of an unknown AWB", "awb", sc.AWB)
			return UnknownAWB, nil
		}
		return "", fmt.Errorf("shipment.apply: %w", err)
	}
	var seen int64
	if err := db.Model(&models.ShipmentEvent{}).Where("awb = ? AND status = ? AND at = ?", sc.AWB, sc.Status, sc.At).
		Count(&seen).Error; err != nil {
		return "", fmt.Errorf("shipment.apply: %w", err)
	}
	if seen > 0 {
		return Duplicate, nil
	}
	advances := courier.Advances(sh.Status, sh.LastScanAt, sc.Status, sc.At)
	if advances {
		if err := s.drive(ctx, &sh, sc.Status); err != nil {
			return "", err
		}
	}
	outcome := Recorded
	err := uow.NewRunner(s.db, s.queue, s.log).Run(ctx, func(u *uow.Unit) error {
		tx := u.Tx()
		var cur models.Shipment
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&cur, "fulfillment_id = ?", sh.FulfillmentID).Error; err != nil {
			return err
		}
		res := tx.Exec(`INSERT INTO shipment_events (fulfillment_id, awb, status, at, location, remark) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (awb, status, at) DO NOTHING`, cur.FulfillmentID, sc.AWB, sc.Status, sc.At, sc.Location, sc.Remark)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			outcome = Duplicate
			return nil
		}
		if !courier.Advances(cur.Status, cur.LastScanAt, sc.Status, sc.At) {
			return nil
		}
		outcome = Applied
		set := map[string]any{"status": sc.Status, "last_scan_at": sc.At, "updated_at": s.now()}
		cur.Status, cur.LastScanAt = sc.Status, &sc.At
		reason := ""
		if sc.Status == courier.StatusUndelivered {
			cur.NDRAttempts++
			cur.NDRReason, reason = sc.Remark, sc.Remark
			set["ndr_attempts"], set["ndr_reason"] = cur.NDRAttempts, cur.NDRReason
		}
		if err := tx.Model(&models.Shipment{}).Where("fulfillment_id = ?", cur.FulfillmentID).Updates(set).Error; err != nil {
			return err
		}
		if _, err := outbox.Stage(u, outbox.Draft{Type: outbox.ShipmentUpdated, Data: newUpdatedEvent(&cur, reason)}); err != nil {
			return err
		}
		if s.messages == nil {
			return nil
		}
		return s.messages.StageShipmentScan(u, messaging.ShipmentScan{OrderID: cur.OrderID, FulfillmentID: cur.FulfillmentID,
			Status: sc.Status, Attempt: cur.NDRAttempts, Reason: reason, TrackingNumber: sc.AWB})
	})
	if err != nil {
		return "", fmt.Errorf("shipment.apply: %w", err)
	}
	return outcome, nil
}

// drive does to the fulfilment what a scan of status means: delivered
// delivers it, rto_delivered returns it to origin. A fulfilment already
// moved (a retried scan whose first run died before recording it, or
// staff who clicked first) is left as it is.
func (s *Service) drive(ctx context.Context, sh *models.Shipment, status string) error {
	var err error
	switch status {
	case courier.StatusDelivered:
		_, err = s.fulfillments.Deliver(ctx, sh.OrderID, sh.FulfillmentID, audit.Actor{})
	case courier.StatusRTODelivered:
		_, err = s.fulfillments.ReturnToOrigin(ctx, sh.OrderID, sh.FulfillmentID, audit.Actor{})
	default:
		return nil
	}
	var e *apperr.Error
	if errors.As(err, &e) && e.Code == apperr.Conflict {
		s.log.Info("courier scan found the fulfilment moved already", "fulfillmentId", sh.FulfillmentID, "status", status,
			"reason", e.Message)
		return nil
	}
	return err
}
