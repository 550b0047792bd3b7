// Package einvoice reports the shop's tax documents to the GST portals
// through a gstportal.Provider: every invoice and credit note to a
// registered buyer to the Invoice Registration Portal (its IRN, signed QR
// code and acknowledgement), and the e-way bills of the fulfilments that
// need one (docs/DECISIONS.md "E-invoices and e-way bills").
//
// A document's report is a row of einvoices made with the document
// (migration 00053's trigger); the worker's task re-reads it, returns when
// it is not pending, asks the IRP, verifies what it signed and stores it.
// The IRN is the same for every attempt (a hash of the document's
// identity), so a task that dies after the IRP answered and before the
// shop stored it gets a duplicate answer on its retry and recovers the
// IRN from the IRP: a document never gets two.
package einvoice

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/gstportal"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Service reports documents and generates e-way bills.
type Service struct {
	db       *gorm.DB
	docs     *invoice.Service
	provider gstportal.Provider
	queue    tasks.Enqueuer
	log      *slog.Logger
	now      func() time.Time
	// handOff is told of each generated e-way bill; nil: nobody.
	handOff HandOff
}

// New returns the service reporting through provider.
func New(db *gorm.DB, docs *invoice.Service, provider gstportal.Provider, queue tasks.Enqueuer, log *slog.Logger) *Service {
	return &Service{db: db, docs: docs, provider: provider, queue: queue, log: log,
		now: func() time.Time { return time.Now().UTC() }}
}

// Provider is the provider the service reports through.
func (s *Service) Provider() gstportal.Provider { return s.provider }

// report is an einvoices row.
type report struct {
	DocumentID  uuid.UUID
	Status      string
	Corrections models.JSON
}

// Report reports document id to the IRP when its report is pending (the
// worker's task): generated with the verified IRN, or failed with the
// IRP's refusal (or a signature that does not verify). An error is a
// portal that did not answer: the task retries.
func (s *Service) Report(ctx context.Context, id uuid.UUID) error {
	var r report
	q := s.db.WithContext(ctx).Table("einvoices").Select("document_id, status, corrections").Where("document_id = ?", id).Take(&r)
	if q.Error != nil {
		if database.IsNotFound(q.Error) {
			return nil
		}
		return fmt.Errorf("einvoice.report: %w", q.Error)
	}
	if r.Status != invoice.EInvoicePending {
		return nil
	}
	doc, err := s.docs.Get(ctx, id)
	if err != nil {
		return err
	}
	var hsn map[int]string
	if len(r.Corrections) > 0 && string(r.Corrections) != "null" {
		if err := json.Unmarshal(r.Corrections, &hsn); err != nil {
			return fmt.Errorf("einvoice.report: corrections: %w", err)
		}
	}
	payload, err := Payload(doc, hsn)
	if err != nil {
		return s.fail(ctx, id, err.Error())
	}
	if closed, err := s.windowClosed(ctx, payload.DocDtls.Dt); err != nil {
		return err
	} else if closed {
		// The IRP would refuse it (2305): asking cannot help, and a
		// person must decide what to do with the document.
		return s.fail(ctx, id, windowClosedError(payload.DocDtls.Dt).Error())
	}
	if err := s.db.WithContext(ctx).Exec(`UPDATE einvoices SET attempts = attempts + 1, updated_at = now() WHERE document_id = ?`,
		id).Error; err != nil {
		return fmt.Errorf("einvoice.report: %w", err)
	}
	irn, err := s.provider.GenerateIRN(ctx, payload)
	if pe, ok := gstportal.Refusal(err); ok && pe.Code == gstportal.CodeDuplicateIRN {
		// Reported before (a task that died after the IRP answered): the
		// IRP's record is the document's.
		irn, err = s.provider.IRNByDocument(ctx, payload.SellerDtls.Gstin, payload.DocDtls.Typ, payload.DocDtls.No, payload.DocDtls.Dt)
		if err == nil && pe.Duplicate != nil && pe.Duplicate.Irn != irn.Irn {
			return s.fail(ctx, id, "the IRP answered a duplicate of IRN "+pe.Duplicate.Irn+" but holds "+irn.Irn)
		}
	}
	switch pe, refused := gstportal.Refusal(err); {
	case refused:
		return s.fail(ctx, id, pe.Error())
	case errors.Is(err, gstportal.ErrDisabled):
		return s.fail(ctx, id, "no GST provider is configured (GST_PROVIDER=none)")
	case err != nil:
		return err
	}
	key, err := s.provider.PublicKey(ctx)
	if err != nil {
		return err
	}
	if err := gstportal.Verify(key, irn); err != nil {
		s.log.WarnContext(ctx, "the IRP's signed e-invoice does not verify", "document", id, "err", err)
		return s.fail(ctx, id, "the IRP's SignedInvoice or SignedQRCode does not verify with its public key")
	}
	ackAt, err := time.ParseInLocation(gstportal.AckLayout, irn.AckDt, gstportal.IST)
	if err != nil {
		return s.fail(ctx, id, "the IRP answered an acknowledgement date "+irn.AckDt)
	}
	if err := s.db.WithContext(ctx).Exec(`UPDATE einvoices SET status = 'generated', irn = ?, ack_no = ?, ack_date = ?,
		signed_invoice = ?, signed_qr = ?, error = NULL, updated_at = now() WHERE document_id = ? AND status = 'pending'`,
		irn.Irn, irn.AckNo, ackAt.UTC(), irn.SignedInvoice, irn.SignedQRCode, id).Error; err != nil {
		return fmt.Errorf("einvoice.report: %w", err)
	}
	s.log.InfoContext(ctx, "e-invoice generated", "document", id, "number", doc.Number, "ackNo", irn.AckNo)
	switch {
	case doc.FulfillmentID != nil:
		s.queueEwayBill(ctx, fulfillmentBill(*doc.FulfillmentID), "irn")
	case doc.TransferID != nil && doc.Type == models.DocInvoice:
		s.queueEwayBill(ctx, transferBill(*doc.TransferID), "irn")
	}
	return nil
}

// fail marks document id's pending report failed with msg (the IRP's
// code and message).
func (s *Service) fail(ctx context.Context, id uuid.UUID, msg string) error {
	if err := s.db.WithContext(ctx).Exec(`UPDATE einvoices SET status = 'failed', error = ?, updated_at = now()
		WHERE document_id = ? AND status = 'pending'`, msg, id).Error; err != nil {
		return fmt.Errorf("einvoice.fail: %w", err)
	}
	s.log.WarnContext(ctx, "e-invoice refused", "document", id, "error", msg)
	return nil
}

// hsnPattern is an HSN or SAC code the IRP takes: 4, 6 or 8 digits.
var hsnPattern = regexp.MustCompile(`^([0-9]{4}|[0-9]{6}|[0-9]{8})$`)

// Correction replaces the HSN of a line of a document whose report the
// IRP refused (lines numbered from 1).
type Correction struct {
	LineNo int    `json:"lineNo"`
	HSN    string `json:"hsn"`
}

// Retry makes the failed report of document id pending again, with
// corrections to the HSN codes it sends (kept for later attempts), and
// queues it. Errors: NOT_FOUND (no such document, or not reported),
// CONFLICT (not failed), VALIDATION_ERROR (a line or code that is not).
func (s *Service) Retry(ctx context.Context, id uuid.UUID, fix []Correction) error {
	doc, err := s.docs.Get(ctx, id)
	if err != nil {
		return err
	}
	if doc.EInvoice == nil {
		return apperr.Missing("e-invoice")
	}
	if doc.EInvoice.Status != invoice.EInvoiceFailed {
		return apperr.Conflictf("the e-invoice is %s; only a failed one is retried", doc.EInvoice.Status).
			WithDetails(map[string]any{"status": doc.EInvoice.Status})
	}
	if closed, err := s.windowClosed(ctx, DocDate(doc)); err != nil {
		return err
	} else if closed {
		return apperr.Conflictf("%s", windowClosedError(DocDate(doc)).Message).
			WithDetails(map[string]any{"code": gstportal.CodeReportingWindow})
	}
	set := map[string]any{"status": invoice.EInvoicePending, "error": nil, "updated_at": s.now()}
	if len(fix) > 0 {
		hsn := map[int]string{}
		for i, c := range fix {
			if c.LineNo < 1 || c.LineNo > len(doc.Lines) {
				return apperr.Invalid(fmt.Sprintf("lines[%d].lineNo", i), fmt.Sprintf("must be a line of the document (1 to %d)", len(doc.Lines)))
			}
			if !hsnPattern.MatchString(c.HSN) {
				return apperr.Invalid(fmt.Sprintf("lines[%d].hsn", i), "must be an HSN or SAC code of 4, 6 or 8 digits")
			}
			hsn[c.LineNo] = c.HSN
		}
		raw, _ := json.Marshal(hsn)
		set["corrections"] = models.JSON(raw)
	}
	q := s.db.WithContext(ctx).Table("einvoices").Where("document_id = ? AND status = 'failed'", id).Updates(set)
	if q.Error != nil {
		return database.Translate(q.Error, "e-invoice")
	}
	if q.RowsAffected == 0 {
		return apperr.Conflictf("the e-invoice is no longer failed")
	}
	t, opts := tasks.NewEInvoiceTask(id.String(), "retry:"+uuid.NewString())
	if err := tasks.Enqueue(ctx, s.queue, t, opts...); err != nil {
		s.log.WarnContext(ctx, "e-invoice retry not queued; the GST sweep will queue it", "document", id, "err", err)
	}
	return nil
}
