// Package orderexport hands the orders a filter selects to a merchant as a
// CSV file: at once when few orders match (DirectLimit), else as a job the
// worker writes into an order_exports row, which the admin who asked for it
// downloads (docs/DECISIONS.md, "Console search and exports").
package orderexport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// DirectLimit is the most orders an export answers at once. Up to it the
// CSV (about 150 bytes an order) is written within the request; beyond it
// a request would hold a connection and an API process for seconds, so the
// export is a job.
const DirectLimit = 1000

// DownloadPath is the admin API path a finished export is downloaded under,
// followed by its id (a job's result names it).
const DownloadPath = "/api/v1/admin/order-exports"

// keepFor is how long a finished export can be downloaded.
const keepFor = 24 * time.Hour

// Service makes order exports.
type Service struct {
	db     *gorm.DB
	orders *order.Service
	queue  tasks.Enqueuer
	now    func() time.Time
}

// New returns the service.
func New(db *gorm.DB, orders *order.Service, queue tasks.Enqueuer) *Service {
	return &Service{db: db, orders: orders, queue: queue, now: func() time.Time { return time.Now().UTC() }}
}

// Filter is an order list filter as an export stores it.
type Filter struct {
	Status      string     `json:"status,omitempty"`
	CustomerID  *uuid.UUID `json:"customerId,omitempty"`
	OrderNumber string     `json:"orderNumber,omitempty"`
	Search      string     `json:"search,omitempty"`
	// PaymentMethod and PaymentStatus as order.Filter's.
	PaymentMethod string     `json:"paymentMethod,omitempty"`
	PaymentStatus string     `json:"paymentStatus,omitempty"`
	From          *time.Time `json:"dateFrom,omitempty"`
	To            *time.Time `json:"dateTo,omitempty"`
}

func (f Filter) order() order.Filter {
	return order.Filter{Status: f.Status, CustomerID: f.CustomerID, OrderNumber: f.OrderNumber, Search: f.Search,
		PaymentMethod: f.PaymentMethod, PaymentStatus: f.PaymentStatus, From: f.From, To: f.To}
}

// Count returns how many orders f matches now. Errors: VALIDATION_ERROR.
func (s *Service) Count(ctx context.Context, f Filter) (int64, error) {
	res, err := s.orders.List(ctx, f.order(), order.Page{Window: paging.Window{Limit: 1}})
	return res.Total, err
}

// Write writes the CSV of the orders f matches to w when there are at most
// DirectLimit of them. Errors: VALIDATION_ERROR, CONFLICT (more match: ask
// for a job with Submit; details carry matched and directLimit).
func (s *Service) Write(ctx context.Context, f Filter, w io.Writer) error {
	n, err := s.Count(ctx, f)
	if err != nil {
		return err
	}
	if n > DirectLimit {
		return apperr.Conflictf("%d orders match, more than the %d exported at once; ask for an export job", n, DirectLimit).
			WithDetails(map[string]any{"matched": n, "directLimit": DirectLimit})
	}
	_, err = s.orders.ExportCSV(ctx, f.order(), w)
	return err
}

// Submit records an export of the orders f matches for admin and queues the
// job that writes it; it returns the export's id, which is the job's.
// Exports older than a day are deleted first. Errors: VALIDATION_ERROR,
// SERVICE_UNAVAILABLE (the queue; nothing is kept).
func (s *Service) Submit(ctx context.Context, admin uuid.UUID, f Filter) (string, error) {
	if _, err := s.Count(ctx, f); err != nil {
		return "", err
	}
	raw, err := json.Marshal(f)
	if err != nil {
		return "", err
	}
	id := uuid.New()
	db := s.db.WithContext(ctx)
	if err := db.Exec(`DELETE FROM order_exports WHERE created_at < ?`, s.now().Add(-keepFor)).Error; err != nil {
		return "", fmt.Errorf("orderexport.submit: prune: %w", err)
	}
	if err := db.Exec(`INSERT INTO order_exports (id, admin_id, filter, created_at) VALUES (?, ?, ?, ?)`,
		id, admin, string(raw), s.now()).Error; err != nil {
		return "", fmt.Errorf("orderexport.submit: %w", err)
	}
	task, opts := tasks.NewOrderExportTask(id.String())
	if _, err := tasks.Submit(ctx, s.queue, task, opts...); err != nil {
		db.Exec(`DELETE FROM order_exports WHERE id = ?`, id)
		return "", apperr.Wrap(apperr.Unavailable, "the job queue is unavailable; nothing was queued", err)
	}
	return id.String(), nil
}

// Result is what a finished export job reports.
type Result struct {
	Rows int `json:"rows"`
	// Download is the admin API path of the CSV.
	Download string `json:"download"`
}

// ErrGone marks an export whose row is gone (deleted after a day): the job
// has nothing to do, and retrying will not change that.
var ErrGone = errors.New("orderexport: the export no longer exists")

// Run writes the CSV of export id into its row (the worker's job). A
// finished export is answered as it is. Errors: ErrGone, or the database's.
func (s *Service) Run(ctx context.Context, id uuid.UUID) (*Result, error) {
	var row struct {
		Filter      []byte
		RowCount    *int
		CompletedAt *time.Time
	}
	err := s.db.WithContext(ctx).Raw(`SELECT filter, row_count, completed_at FROM order_exports WHERE id = ?`, id).Scan(&row).Error
	if err != nil {
		return nil, fmt.Errorf("orderexport.run: %w", err)
	}
	res := &Result{Download: DownloadPath + "/" + id.String()}
	switch {
	case row.Filter == nil:
		return nil, ErrGone
	case row.CompletedAt != nil && row.RowCount != nil:
		res.Rows = *row.RowCount
		return res, nil
	}
	var f Filter
	if err := json.Unmarshal(row.Filter, &f); err != nil {
		return nil, fmt.Errorf("orderexport.run: filter: %w", err)
	}
	var buf bytes.Buffer
	n, err := s.orders.ExportCSV(ctx, f.order(), &buf)
	if err != nil {
		return nil, err
	}
	if err := s.db.WithContext(ctx).Exec(`UPDATE order_exports SET csv = ?, row_count = ?, completed_at = ? WHERE id = ?`,
		buf.Bytes(), n, s.now(), id).Error; err != nil {
		return nil, fmt.Errorf("orderexport.run: store: %w", err)
	}
	res.Rows = n
	return res, nil
}

// Download returns the CSV of export id, for the admin who asked for it.
// Errors: NOT_FOUND (no such export, another admin's, or deleted after a
// day), CONFLICT (not written yet).
func (s *Service) Download(ctx context.Context, admin, id uuid.UUID) ([]byte, error) {
	var row struct {
		CSV         []byte
		CompletedAt *time.Time
		Found       bool
	}
	err := s.db.WithContext(ctx).Raw(`SELECT csv, completed_at, true AS found FROM order_exports
		WHERE id = ? AND admin_id = ? AND created_at >= ?`, id, admin, s.now().Add(-keepFor)).Scan(&row).Error
	if err != nil {
		return nil, fmt.Errorf("orderexport.download: %w", err)
	}
	switch {
	case !row.Found:
		return nil, apperr.Missing("export")
	case row.CompletedAt == nil:
		return nil, apperr.Conflictf("the export is still being written; follow its job until it completes")
	}
	return row.CSV, nil
}
