package invoice

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Filter narrows the administrators' list of documents.
type Filter struct {
	OrderID *uuid.UUID
	// From and To bound the issue date (the store's calendar days,
	// STORE_TIMEZONE, inclusive).
	From, To *time.Time
	// Type is invoice, credit_note or empty for both.
	Type string
	// GSTIN is the registration the documents were issued under (the
	// store's or a location's), or empty for every one: numbers repeat
	// across registrations, each keeps its own series.
	GSTIN string
}

// List returns a page of documents matching f, newest first, and their
// count.
func (s *Service) List(ctx context.Context, f Filter, w paging.Window) ([]Document, int64, error) {
	q := s.db.WithContext(ctx).Model(&models.TaxDocument{})
	if f.OrderID != nil {
		q = q.Where("order_id = ?", *f.OrderID)
	}
	if f.From != nil {
		q = q.Where("issued_at >= ?", dayStart(*f.From, s.zone()))
	}
	if f.To != nil {
		q = q.Where("issued_at < ?", dayStart(*f.To, s.zone()).AddDate(0, 0, 1))
	}
	if f.Type != "" {
		q = q.Where("doc_type = ?", f.Type)
	}
	if f.GSTIN != "" {
		q = q.Where("supplier_gstin = ?", f.GSTIN)
	}
	return s.page(q, w)
}

// dayStart is the start of calendar day d (its date read as given) in loc.
func dayStart(d time.Time, loc *time.Location) time.Time {
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, loc)
}

// page reads a page of q's documents, newest first, with their count.
func (s *Service) page(q *gorm.DB, w paging.Window) ([]Document, int64, error) {
	var total int64
	if err := q.Session(&gorm.Session{}).Count(&total).Error; err != nil {
		return nil, 0, database.Translate(err, "invoice")
	}
	var docs []models.TaxDocument
	if total > int64(w.Offset) {
		if err := q.Order("issued_at DESC, serial DESC").Limit(w.Limit).Offset(w.Offset).Find(&docs).Error; err != nil {
			return nil, 0, database.Translate(err, "invoice")
		}
	}
	out, err := s.views(q.Session(&gorm.Session{NewDB: true}), docs)
	return out, total, err
}

// views renders docs with their lines and referenced invoice numbers, in
// two statements.
func (s *Service) views(db *gorm.DB, docs []models.TaxDocument) ([]Document, error) {
	out := make([]Document, 0, len(docs))
	if len(docs) == 0 {
		return out, nil
	}
	ids := make([]uuid.UUID, len(docs))
	for i := range docs {
		ids[i] = docs[i].ID
	}
	var lines []models.TaxDocumentLine
	if err := db.Where("document_id IN ?", ids).Order("document_id, line_no").Find(&lines).Error; err != nil {
		return nil, fmt.Errorf("invoice.lines: %w", err)
	}
	byDoc := map[uuid.UUID][]models.TaxDocumentLine{}
	var refIDs []uuid.UUID
	for _, l := range lines {
		byDoc[l.DocumentID] = append(byDoc[l.DocumentID], l)
		if l.ReducesDocumentID != nil {
			refIDs = append(refIDs, *l.ReducesDocumentID)
		}
	}
	refs := map[uuid.UUID]Reference{}
	if len(refIDs) > 0 {
		var rows []struct {
			ID       uuid.UUID
			Number   string
			IssuedAt time.Time
		}
		if err := db.Model(&models.TaxDocument{}).Select("id", "number", "issued_at").Where("id IN ?", refIDs).
			Scan(&rows).Error; err != nil {
			return nil, fmt.Errorf("invoice.references: %w", err)
		}
		for _, r := range rows {
			refs[r.ID] = Reference{ID: r.ID, Number: r.Number, IssuedAt: r.IssuedAt.UTC()}
		}
	}
	reports, err := eInvoicesOf(db, ids)
	if err != nil {
		return nil, err
	}
	for i := range docs {
		docs[i].Lines = byDoc[docs[i].ID]
		v, err := view(&docs[i], refs)
		if err != nil {
			return nil, err
		}
		v.EInvoice = reports[v.ID]
		out = append(out, v)
	}
	return out, nil
}

// Get returns document id. Errors: NOT_FOUND.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*Document, error) {
	return s.one(s.db.WithContext(ctx).Where("id = ?", id))
}

func (s *Service) one(q *gorm.DB) (*Document, error) {
	var d models.TaxDocument
	if err := q.Take(&d).Error; err != nil {
		if database.IsNotFound(err) {
			return nil, apperr.Missing("invoice")
		}
		return nil, database.Translate(err, "invoice")
	}
	out, err := s.views(q.Session(&gorm.Session{NewDB: true}), []models.TaxDocument{d})
	if err != nil {
		return nil, err
	}
	return &out[0], nil
}

// ForCustomer returns a page of the documents of customerID's order
// orderID, newest first. Another customer's order is NOT_FOUND, like an
// unknown one.
func (s *Service) ForCustomer(ctx context.Context, customerID, orderID uuid.UUID, w paging.Window) ([]Document, int64, error) {
	db := s.db.WithContext(ctx)
	var mine bool
	if err := db.Raw(`SELECT EXISTS (SELECT 1 FROM orders WHERE id = ? AND customer_id = ?)`, orderID, customerID).
		Scan(&mine).Error; err != nil {
		return nil, 0, database.Translate(err, "order")
	}
	if !mine {
		return nil, 0, apperr.Missing("order")
	}
	return s.page(db.Model(&models.TaxDocument{}).Where("order_id = ?", orderID), w)
}

// CustomerDocument returns document id of customerID's order orderID.
// Errors: NOT_FOUND (also for another customer's order or document).
func (s *Service) CustomerDocument(ctx context.Context, customerID, orderID, id uuid.UUID) (*Document, error) {
	return s.one(s.db.WithContext(ctx).Where(`id = ? AND order_id = ? AND EXISTS
		(SELECT 1 FROM orders o WHERE o.id = tax_documents.order_id AND o.customer_id = ?)`, id, orderID, customerID))
}
