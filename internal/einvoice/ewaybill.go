package einvoice

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/gstportal"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/region"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"gorm.io/gorm"
)

// EwayBill is a fulfilment's e-way bill as answered: pending until the
// worker generates it (after the invoice's IRN when the store
// e-invoices), generated with its number and validity, or failed with the
// portal's error.
type EwayBill struct {
	Status     string     `json:"status"`
	Number     *int64     `json:"number"`
	ValidUntil *time.Time `json:"validUntil"`
	DistanceKm *int       `json:"distanceKm"`
	Error      *string    `json:"error"`
}

// EwayBillsOf returns the e-way bills of fulfilments ids (none for a
// fulfilment that needs none).
func EwayBillsOf(ctx context.Context, db *gorm.DB, ids []uuid.UUID) (map[uuid.UUID]*EwayBill, error) {
	return ewayBillsBy(ctx, db, fulfillmentOwner, ids)
}

// TransferEwayBillsOf returns the e-way bills of transfers ids (none for a
// transfer that needs none).
func TransferEwayBillsOf(ctx context.Context, db *gorm.DB, ids []uuid.UUID) (map[uuid.UUID]*EwayBill, error) {
	return ewayBillsBy(ctx, db, transferOwner, ids)
}

func ewayBillsBy(ctx context.Context, db *gorm.DB, o billOwner, ids []uuid.UUID) (map[uuid.UUID]*EwayBill, error) {
	out := map[uuid.UUID]*EwayBill{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		OwnerID uuid.UUID
		EwayBill
	}
	if err := db.WithContext(ctx).Table("eway_bills").Select(o.column+" AS owner_id, status, number, valid_until, distance_km, error").
		Where(o.column+" IN ?", ids).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("einvoice.ewaybills: %w", err)
	}
	for i := range rows {
		r := &rows[i]
		if r.ValidUntil != nil {
			t := r.ValidUntil.UTC()
			r.ValidUntil = &t
		}
		out[r.OwnerID] = &r.EwayBill
	}
	return out, nil
}

// EwayBills returns the e-way bills of fulfilments ids (EwayBillsOf).
func (s *Service) EwayBills(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]*EwayBill, error) {
	return EwayBillsOf(ctx, s.db, ids)
}

// BlocksHandOff reports whether fulfilment id may not be handed to a
// courier yet: it needs an e-way bill (Rule 138) and the bill is not
// generated. The courier hand-off (docs/DECISIONS.md "Couriers") asks it
// before it books a pickup.
func BlocksHandOff(ctx context.Context, db *gorm.DB, id uuid.UUID) (bool, error) {
	var blocked bool
	err := db.WithContext(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM eway_bills WHERE fulfillment_id = ? AND status <> 'generated')`, id).
		Scan(&blocked).Error
	if err != nil {
		return true, fmt.Errorf("einvoice.blocks: %w", err)
	}
	return blocked, nil
}

// billOwner is what an e-way bill belongs to: a fulfilment or a stock
// transfer (migration 00061). Its table and column are constants, never
// input: they are written into SQL.
type billOwner struct {
	table, column string
	id            uuid.UUID
}

var (
	fulfillmentOwner = billOwner{table: "fulfillments", column: "fulfillment_id"}
	transferOwner    = billOwner{table: "stock_transfers", column: "transfer_id"}
)

func fulfillmentBill(id uuid.UUID) billOwner { o := fulfillmentOwner; o.id = id; return o }
func transferBill(id uuid.UUID) billOwner    { o := transferOwner; o.id = id; return o }

// task is the generation task of o's e-way bill for cause key.
func (o billOwner) task(key string) (*asynq.Task, []asynq.Option) {
	if o.column == transferOwner.column {
		return tasks.NewTransferEwayBillTask(o.id.String(), key)
	}
	return tasks.NewEwayBillTask(o.id.String(), key)
}

func (s *Service) queueEwayBill(ctx context.Context, o billOwner, key string) {
	var pending bool
	if err := s.db.WithContext(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM eway_bills WHERE `+o.column+` = ? AND status = 'pending')`, o.id).
		Scan(&pending).Error; err != nil || !pending {
		return
	}
	t, opts := o.task(key)
	if err := tasks.Enqueue(ctx, s.queue, t, opts...); err != nil {
		s.log.WarnContext(ctx, "e-way bill not queued; the GST sweep will queue it", o.column, o.id, "err", err)
	}
}

// ewayRow is what generating an e-way bill reads: the bill, the invoice's
// IRN (when reported) and the fulfilment's transport.
type ewayRow struct {
	DocumentID     uuid.UUID
	Status         string
	EInvoiceStatus *string
	IRN            *string
	VehicleNumber  *string
	TransporterID  *string
	DistanceKm     *int
}

// GenerateEwayBill generates the pending e-way bill of fulfilment fid (the
// worker's task): by the invoice's IRN when it was e-invoiced, else from
// the invoice itself. It waits (returns) while the invoice's e-invoice is
// not generated: the report queues it again when it is. A refusal marks
// it failed; an error is a portal that did not answer.
func (s *Service) GenerateEwayBill(ctx context.Context, fid uuid.UUID) error {
	return s.generateEwayBill(ctx, fulfillmentBill(fid))
}

// GenerateTransferEwayBill is GenerateEwayBill for the e-way bill of stock
// transfer tid's tax invoice.
func (s *Service) GenerateTransferEwayBill(ctx context.Context, tid uuid.UUID) error {
	return s.generateEwayBill(ctx, transferBill(tid))
}

func (s *Service) generateEwayBill(ctx context.Context, o billOwner) error {
	var r ewayRow
	err := s.db.WithContext(ctx).Raw(`SELECT w.document_id, w.status, e.status AS e_invoice_status, e.irn,
		f.vehicle_number, f.transporter_id, f.distance_km
		FROM eway_bills w JOIN `+o.table+` f ON f.id = w.`+o.column+` LEFT JOIN einvoices e ON e.document_id = w.document_id
		WHERE w.`+o.column+` = ?`, o.id).Take(&r).Error
	switch {
	case database.IsNotFound(err):
		return nil
	case err != nil:
		return fmt.Errorf("einvoice.ewaybill: %w", err)
	case r.Status != invoice.EInvoicePending:
		return nil
	case r.EInvoiceStatus != nil && *r.EInvoiceStatus != invoice.EInvoiceGenerated:
		return nil
	}
	t := gstportal.Transport{}
	if r.VehicleNumber != nil {
		t.VehicleNumber = *r.VehicleNumber
	}
	if r.TransporterID != nil {
		t.TransporterID = *r.TransporterID
	}
	if r.DistanceKm != nil {
		t.DistanceKm = *r.DistanceKm
	}
	what := "fulfilment"
	if o.column == transferOwner.column {
		what = "transfer"
	}
	if t.VehicleNumber == "" && t.TransporterID == "" {
		return s.failEway(ctx, o, "the "+what+" has neither a vehicleNumber nor a transporterId")
	}
	if err := s.db.WithContext(ctx).Exec(`UPDATE eway_bills SET attempts = attempts + 1, updated_at = now() WHERE `+o.column+` = ?`,
		o.id).Error; err != nil {
		return fmt.Errorf("einvoice.ewaybill: %w", err)
	}
	doc, err := s.docs.Get(ctx, r.DocumentID)
	if err != nil {
		return err
	}
	var bill *gstportal.EwayBill
	if r.IRN != nil {
		bill, err = s.provider.EwayBillByIRN(ctx, doc.Supplier.GSTIN, *r.IRN, t)
	} else {
		bill, err = s.provider.EwayBill(ctx, ewbRequest(doc, t))
	}
	switch pe, refused := gstportal.Refusal(err); {
	case refused:
		return s.failEway(ctx, o, pe.Error())
	case errors.Is(err, gstportal.ErrDisabled):
		return s.failEway(ctx, o, "no GST provider is configured (GST_PROVIDER=none)")
	case errors.Is(err, gstportal.ErrNoEwbAPI):
		return s.failEway(ctx, o, "the document has no IRN and the e-way bill API is not configured (GST_EWB_API_URL)")
	case err != nil:
		return err
	}
	if err := s.db.WithContext(ctx).Exec(`UPDATE eway_bills SET status = 'generated', number = ?, generated_at = ?, valid_until = ?,
		distance_km = ?, error = NULL, updated_at = now() WHERE `+o.column+` = ? AND status = 'pending'`,
		bill.Number, bill.Date.UTC(), bill.ValidUntil.UTC(), bill.DistanceKm, o.id).Error; err != nil {
		return fmt.Errorf("einvoice.ewaybill: %w", err)
	}
	s.log.InfoContext(ctx, "e-way bill generated", o.column, o.id, "number", bill.Number)
	if o.table == fulfillmentOwner.table {
		s.handedOff(ctx, o.id) // a courier booking may wait for it
	}
	return nil
}

// Carriage corrects how a fulfilment's goods travel before its e-way bill
// is generated again; nil fields keep what the fulfilment has.
type Carriage struct {
	VehicleNumber, TransporterID *string
	DistanceKm                   *int
}

// RetryEwayBill makes the failed e-way bill of fulfilment fid of order
// orderID pending again, with c applied to the fulfilment, and queues it.
// Errors: NOT_FOUND (no such fulfilment of the order, or no e-way bill),
// CONFLICT (the bill is not failed).
func (s *Service) RetryEwayBill(ctx context.Context, orderID, fid uuid.UUID, c Carriage) error {
	return s.retryEwayBill(ctx, fulfillmentBill(fid), "f.order_id = ?", orderID, c)
}

// RetryTransferEwayBill is RetryEwayBill for the e-way bill of stock
// transfer tid. Errors: NOT_FOUND (no such transfer, or no e-way bill),
// CONFLICT (the bill is not failed).
func (s *Service) RetryTransferEwayBill(ctx context.Context, tid uuid.UUID, c Carriage) error {
	return s.retryEwayBill(ctx, transferBill(tid), "true", nil, c)
}

// retryEwayBill retries o's failed bill; scope (SQL over f, o's row, with
// its argument) says whose it must be.
func (s *Service) retryEwayBill(ctx context.Context, o billOwner, scope string, scopeArg any, c Carriage) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var status string
		args := []any{o.id}
		if scopeArg != nil {
			args = append(args, scopeArg)
		}
		q := tx.Raw(`SELECT w.status FROM eway_bills w JOIN `+o.table+` f ON f.id = w.`+o.column+`
			WHERE w.`+o.column+` = ? AND `+scope+` FOR UPDATE OF w`, args...).Scan(&status)
		switch {
		case q.Error != nil:
			return database.Translate(q.Error, "e-way bill")
		case q.RowsAffected == 0:
			return apperr.Missing("e-way bill")
		case status != invoice.EInvoiceFailed:
			return apperr.Conflictf("the e-way bill is %s; only a failed one is generated again", status).
				WithDetails(map[string]any{"status": status})
		}
		set := map[string]any{}
		if c.VehicleNumber != nil {
			set["vehicle_number"] = *c.VehicleNumber
		}
		if c.TransporterID != nil {
			set["transporter_id"] = *c.TransporterID
		}
		if c.DistanceKm != nil {
			set["distance_km"] = *c.DistanceKm
		}
		if len(set) > 0 {
			if err := tx.Table(o.table).Where("id = ?", o.id).Updates(set).Error; err != nil {
				return database.Translate(err, o.table)
			}
		}
		return tx.Exec(`UPDATE eway_bills SET status = 'pending', error = NULL, updated_at = now() WHERE `+o.column+` = ?`, o.id).Error
	})
	if err != nil {
		return err
	}
	s.queueEwayBill(ctx, o, "retry:"+uuid.NewString())
	return nil
}

func (s *Service) failEway(ctx context.Context, o billOwner, msg string) error {
	if err := s.db.WithContext(ctx).Exec(`UPDATE eway_bills SET status = 'failed', error = ?, updated_at = now()
		WHERE `+o.column+` = ? AND status = 'pending'`, msg, o.id).Error; err != nil {
		return fmt.Errorf("einvoice.ewaybill: %w", err)
	}
	s.log.WarnContext(ctx, "e-way bill refused", o.column, o.id, "error", msg)
	return nil
}

// ewbRequest is the GENEWAYBILL body of invoice doc carried by t: an
// outward supply (O) of the supplier's own goods (sub-type 1) on a tax
// invoice, to the delivery address. A transfer's delivery challan moves
// goods for the sender's own use (sub-type 5) on a challan (CHL), to its
// own GSTIN's other premises.
func ewbRequest(doc *invoice.Document, t gstportal.Transport) *gstportal.EwbRequest {
	from, _ := region.GSTCode(doc.Supplier.Address.State)
	to := doc.PlaceOfSupply.Code
	toPin, toPlace, toAddr := doc.Recipient.Address.Pincode, doc.Recipient.Address.City, doc.Recipient.Address.Line1
	if a := doc.DeliveryAddress; a != nil {
		toPin, toPlace, toAddr = a.Pincode, a.City, a.Line1
	}
	toGSTIN := "URP"
	if doc.Recipient.GSTIN != nil {
		toGSTIN = *doc.Recipient.GSTIN
	}
	subType, docType := 1, "INV"
	if doc.Type == models.DocDeliveryChallan {
		subType, docType, toGSTIN = 5, "CHL", doc.Supplier.GSTIN
	}
	req := &gstportal.EwbRequest{SupplyType: "O", SubSupplyType: subType, DocType: docType, DocNo: doc.Number, DocDate: DocDate(doc),
		TransactionType: 1, FromGstin: doc.Supplier.GSTIN, FromTrdName: doc.Supplier.LegalName, FromAddr1: doc.Supplier.Address.Line1,
		FromPlace: doc.Supplier.Address.City, FromPincode: pin(doc.Supplier.Address.Pincode), FromStateCode: atoi(from),
		ActFromStateCode: atoi(from), ToGstin: toGSTIN, ToTrdName: doc.Recipient.Name, ToAddr1: toAddr, ToPlace: toPlace,
		ToPincode: pin(toPin), ToStateCode: atoi(to), ActToStateCode: atoi(to), TotalValue: rupees(doc.TaxableValue),
		CgstValue: rupees(doc.CGSTTotal), SgstValue: rupees(doc.SGSTTotal), IgstValue: rupees(doc.IGSTTotal),
		CessValue: rupees(doc.CessTotal), TotInvValue: rupees(doc.Total), TransDistance: t.DistanceKm,
		TransporterID: t.TransporterID, VehicleNo: t.VehicleNumber}
	if t.VehicleNumber != "" {
		req.TransMode, req.VehicleType = 1, "R"
	}
	for i, l := range doc.Lines {
		rate := float64(l.GSTRate) / 100
		it := gstportal.EwbItem{ItemNo: i + 1, ProductDesc: l.Description, HsnCode: l.HSN, QtyUnit: l.Unit,
			Quantity: float64(l.Quantity), TaxableAmount: rupees(l.TaxableValue), CessRate: float64(l.CessRate) / 100}
		if l.IGST > 0 || doc.SupplyType == "inter" {
			it.IgstRate = rate
		} else {
			it.CgstRate, it.SgstRate = rate/2, rate/2
		}
		if req.MainHsnCode == "" {
			req.MainHsnCode = l.HSN
		}
		req.ItemList = append(req.ItemList, it)
	}
	return req
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
