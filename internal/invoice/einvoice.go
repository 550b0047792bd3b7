package invoice

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"log/slog"
)

// EInvoice is a document's report to the Invoice Registration Portal
// (docs/DECISIONS.md "E-invoices and e-way bills"): pending until the IRP
// answers, generated with its IRN and acknowledgement, or failed with the
// IRP's error.
type EInvoice struct {
	Status  string     `json:"status"`
	IRN     *string    `json:"irn"`
	AckNo   *int64     `json:"ackNo"`
	AckDate *time.Time `json:"ackDate"`
	Error   *string    `json:"error"`
	// SignedQRCode is the IRP's signed QR code, which the PDF prints.
	SignedQRCode *string `json:"-"`
}

// E-invoice statuses.
const (
	EInvoicePending   = "pending"
	EInvoiceGenerated = "generated"
	EInvoiceFailed    = "failed"
)

// eInvoicesOf reads the reports of documents ids (the einvoices rows,
// made with the documents by migration 00053's trigger).
func eInvoicesOf(db *gorm.DB, ids []uuid.UUID) (map[uuid.UUID]*EInvoice, error) {
	var rows []struct {
		DocumentID uuid.UUID
		EInvoice
		SignedQR *string
	}
	if err := db.Table("einvoices").Select("document_id, status, irn, ack_no, ack_date, error, signed_qr").
		Where("document_id IN ?", ids).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("invoice.einvoices: %w", err)
	}
	out := make(map[uuid.UUID]*EInvoice, len(rows))
	for i := range rows {
		r := &rows[i]
		r.EInvoice.SignedQRCode = r.SignedQR
		if r.AckDate != nil {
			t := r.AckDate.UTC()
			r.AckDate = &t
		}
		out[r.DocumentID] = &r.EInvoice
	}
	return out, nil
}

// nudgeEInvoice queues the report of doc after u commits when doc goes to
// a registered buyer and the store e-invoices (the identity this process
// last read: the database's trigger decides whether a report is made, and
// the sweep queues one whose nudge was not sent).
func (s *Service) nudgeEInvoice(u *uow.Unit, doc *models.TaxDocument) {
	if doc.RecipientGSTIN == nil || doc.TransferID != nil || doc.DocType == models.DocFinancialCreditNote {
		return
	}
	if id := s.identity.Load(); id != nil && !id.EInvoicing {
		return
	}
	docID := doc.ID.String()
	u.AfterCommit("einvoice:"+docID, func(ctx context.Context, q tasks.Enqueuer, log *slog.Logger) {
		t, opts := tasks.NewEInvoiceTask(docID, "issued")
		if err := tasks.Enqueue(ctx, q, t, opts...); err != nil {
			log.WarnContext(ctx, "e-invoice nudge failed; the GST sweep will queue the report", "document", docID, "err", err)
		}
	})
}

// NudgeTransferReports queues, after the commit of a transfer's change,
// the reports of its documents still pending at the IRP and its pending
// e-way bill (a transfer's documents are written in its own transaction,
// not a unit's, so this is its after-commit step; the sweep queues any
// whose nudge is lost).
func (s *Service) NudgeTransferReports(ctx context.Context, q tasks.Enqueuer, log *slog.Logger, transferID uuid.UUID) {
	var docs []uuid.UUID
	var bill bool
	db := s.db.WithContext(ctx)
	if err := db.Raw(`SELECT e.document_id FROM einvoices e JOIN tax_documents d ON d.id = e.document_id
		WHERE d.transfer_id = ? AND e.status = 'pending'`, transferID).Scan(&docs).Error; err != nil {
		log.WarnContext(ctx, "transfer's e-invoices not queued; the GST sweep will queue them", "transfer", transferID, "err", err)
		return
	}
	for _, id := range docs {
		t, opts := tasks.NewEInvoiceTask(id.String(), "issued")
		if err := tasks.Enqueue(ctx, q, t, opts...); err != nil {
			log.WarnContext(ctx, "e-invoice nudge failed; the GST sweep will queue the report", "document", id, "err", err)
		}
	}
	if err := db.Raw(`SELECT EXISTS (SELECT 1 FROM eway_bills WHERE transfer_id = ? AND status = 'pending')`, transferID).
		Scan(&bill).Error; err != nil || !bill {
		return
	}
	t, opts := tasks.NewTransferEwayBillTask(transferID.String(), "issued")
	if err := tasks.Enqueue(ctx, q, t, opts...); err != nil {
		log.WarnContext(ctx, "e-way bill nudge failed; the GST sweep will queue it", "transfer", transferID, "err", err)
	}
}

// WithEwayBillThreshold makes fulfilments whose invoice is worth more than
// threshold (EWAY_BILL_THRESHOLD) need an e-way bill when they cross a
// state border, or within a state the tax settings list. It returns s.
func (s *Service) WithEwayBillThreshold(threshold money.Amount) *Service {
	s.ewayThreshold = threshold
	return s
}

// needsEwayBill reports whether invoice (or a transfer's delivery
// challan) doc, issued under identity id, moves goods that need an e-way
// bill (Rule 138(1): in relation to a supply, or for reasons other than
// supply): worth more than the threshold, and crossing a state border or
// within a listed state.
func (s *Service) needsEwayBill(doc *models.TaxDocument, id *identity) bool {
	if s.ewayThreshold <= 0 || doc.Total <= s.ewayThreshold ||
		(doc.DocType != models.DocInvoice && doc.DocType != models.DocDeliveryChallan) {
		return false
	}
	return doc.SupplyType == models.SupplyInter || slices.Contains(id.EwayIntraStates, doc.PosState)
}

// stageEwayBill stages the e-way bill of fulfilment f with its invoice doc
// when one is needed, and queues its generation after the commit (the
// worker waits for the invoice's IRN when the store e-invoices).
func (s *Service) stageEwayBill(u *uow.Unit, f *models.Fulfillment, doc *models.TaxDocument, id *identity) {
	if !s.needsEwayBill(doc, id) {
		return
	}
	u.Insert("eway_bills", []string{"fulfillment_id", "document_id", "created_at", "updated_at"},
		[]any{f.ID, doc.ID, doc.IssuedAt, doc.IssuedAt})
	fid := f.ID.String()
	u.AfterCommit("eway:"+fid, func(ctx context.Context, q tasks.Enqueuer, log *slog.Logger) {
		t, opts := tasks.NewEwayBillTask(fid, "issued")
		if err := tasks.Enqueue(ctx, q, t, opts...); err != nil {
			log.WarnContext(ctx, "e-way bill nudge failed; the GST sweep will queue it", "fulfillment", fid, "err", err)
		}
	})
}
