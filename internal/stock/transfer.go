package stock

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/einvoice"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Statuses of a transfer: its units left the source (in_transit), some of
// them reached the destination and the rest are still on their way
// (partially_received), all reached it (received) or the units not
// received went back to the source (cancelled).
const (
	TransferInTransit         = "in_transit"
	TransferPartiallyReceived = "partially_received"
	TransferReceived          = "received"
	TransferCancelled         = "cancelled"
)

// open reports whether a transfer in status still has units in transit.
func open(status string) bool {
	return status == TransferInTransit || status == TransferPartiallyReceived
}

// Transfer moves units of variants from one location to another.
type Transfer struct {
	ID             uuid.UUID
	FromLocationID *uuid.UUID // nil: deleted since it was received or cancelled
	ToLocationID   *uuid.UUID
	Status         string
	Note           string
	AdminID        *uuid.UUID
	Items          []Item `gorm:"-"`
	// Received is how many units of each item reached the destination, by
	// variant (those not listed: none).
	Received map[uuid.UUID]int `gorm:"-"`
	// Values are the items' values per unit without GST, by variant, as
	// the transfer gave them (none: the variant's price without GST).
	Values map[uuid.UUID]money.Amount `gorm:"-"`
	// Documents are its tax invoice or delivery challan, then any credit
	// note (invoice.Service.TransferDocuments).
	Documents []invoice.DocumentRef `gorm:"-"`
	// VehicleNumber, TransporterID and DistanceKm carry the goods, for
	// the e-way bill; EwayBill is the invoice's, nil when none is needed.
	VehicleNumber *string
	TransporterID *string
	DistanceKm    *int
	EwayBill      *einvoice.EwayBill `gorm:"-"`
	ReceivedAt    *time.Time
	CancelledAt   *time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// TransferInput is a transfer asked for.
type TransferInput struct {
	From, To uuid.UUID
	Items    []Item
	// Values are values per unit without GST, by variant, of the items
	// that give one (optional): the transfer's tax invoice bills them.
	Values  map[uuid.UUID]money.Amount
	Note    string
	AdminID uuid.UUID
	// VehicleNumber or TransporterID, and DistanceKm (0: the portal's from
	// the pincodes), carry the goods: the e-way bill of an invoiced
	// transfer that needs one is made with them.
	VehicleNumber, TransporterID string
	DistanceKm                   int
}

// MaxTransferItems bounds the variants of one transfer.
const MaxTransferItems = 500

// CreateTransfer sends in's units on their way: they leave the source's
// level at once and, when the source sells, the variants' inventory, never
// below the units the variant has committed to orders and reserved by
// checkouts (with the source's units gone, the other selling locations
// must still cover them). Errors: VALIDATION_ERROR (fromLocationId,
// toLocationId, items[i].variantId or .quantity), CONFLICT (the source
// short of units or needing them for orders, details naming each).
// A keyed request retried after its process died answers with the
// transfer it made instead of sending the units again (transferMade).
func (s *Levels) CreateTransfer(ctx context.Context, in TransferInput) (*Transfer, error) {
	if t, ok, err := s.transferMade(ctx); ok {
		return t, err
	}
	if in.From == in.To {
		return nil, apperr.Invalid("toLocationId", "must differ from fromLocationId")
	}
	if len(in.Items) == 0 || len(in.Items) > MaxTransferItems {
		return nil, apperr.Invalid("items", "must hold 1 to 500 items")
	}
	seen := map[uuid.UUID]bool{}
	for i, it := range in.Items {
		f := "items[" + strconv.Itoa(i) + "]."
		switch {
		case it.Quantity < 1 || it.Quantity > MaxUnits:
			return nil, apperr.Invalid(f+"quantity", "must be between 1 and 1000000000")
		case seen[it.VariantID]:
			return nil, apperr.Invalid(f+"variantId", "names a variant already listed")
		}
		seen[it.VariantID] = true
		if v, ok := in.Values[it.VariantID]; ok && (v <= 0 || v > maxUnitValue) {
			return nil, apperr.Invalid(f+"value", "must be between 0.01 and "+maxUnitValue.String())
		}
	}
	t := &Transfer{ID: uuid.New(), FromLocationID: &in.From, ToLocationID: &in.To, Status: TransferInTransit, Note: in.Note,
		Items: merge(in.Items)}
	if in.AdminID != uuid.Nil {
		t.AdminID = &in.AdminID
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		from, err := lockNamed(tx, in.From, "fromLocationId")
		if err != nil {
			return err
		}
		if _, err := lockNamed(tx, in.To, "toLocationId"); err != nil {
			return err
		}
		if err := takeFrom(tx, from, in.Items); err != nil {
			return err
		}
		if err := tx.Exec(`INSERT INTO stock_transfers (id, from_location_id, to_location_id, status, note, admin_id,
			vehicle_number, transporter_id, distance_km) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.ID, in.From, in.To, t.Status, t.Note,
			t.AdminID, nullIfEmpty(in.VehicleNumber), nullIfEmpty(in.TransporterID), nullIfZero(in.DistanceKm)).Error; err != nil {
			return fmt.Errorf("stock.transfer: %w", err)
		}
		supply := invoice.TransferSupply{ID: t.ID, From: in.From, To: in.To}
		for _, it := range t.Items {
			var value *money.Amount
			if v, ok := in.Values[it.VariantID]; ok {
				value = &v
			}
			if err := tx.Exec(`INSERT INTO stock_transfer_items (transfer_id, variant_id, quantity, value) VALUES (?, ?, ?, ?)`,
				t.ID, it.VariantID, it.Quantity, value).Error; err != nil {
				return fmt.Errorf("stock.transfer: %w", err)
			}
			supply.Items = append(supply.Items, invoice.TransferItem{VariantID: it.VariantID, Quantity: it.Quantity, Value: value})
		}
		// The document is issued with the transfer, in its transaction: a
		// keyed retry after a crash finds both made, or neither.
		if s.docs != nil {
			if err := s.docs.IssueTransferDocument(tx, supply); err != nil {
				return err
			}
		}
		return idempotency.RecordChange(uow.Within(ctx, tx), t.ID.String())
	})
	if e := LevelShort(err); e != nil {
		return nil, e
	}
	if e := invoice.SeriesFull(err); e != nil {
		return nil, e
	}
	if err != nil {
		return nil, err
	}
	if s.docs != nil {
		s.docs.NudgeTransferReports(ctx, s.queue, s.log, t.ID)
	}
	return s.Transfer(ctx, t.ID)
}

// transferMade returns the transfer that an earlier run of the keyed
// request ctx serves made before its process died (ok true), so that the
// retry answers with it instead of moving the units again.
// Errors: NOT_FOUND (the transfer is gone).
func (s *Levels) transferMade(ctx context.Context) (t *Transfer, ok bool, err error) {
	ref, ok := idempotency.RecordedChange(ctx)
	if !ok {
		return nil, false, nil
	}
	id, err := uuid.Parse(ref)
	if err != nil {
		return nil, true, fmt.Errorf("stock.transfer: recorded change %q: %w", ref, err)
	}
	t, err = s.Transfer(ctx, id)
	return t, true, err
}

// lockNamed is LockPlace for a location the request names as field.
func lockNamed(tx *gorm.DB, id uuid.UUID, field string) (Place, error) {
	p, err := LockPlace(tx, id)
	if err != nil {
		if e, ok := apperr.As(err); ok && e.Code == apperr.Validation {
			return p, apperr.Invalid(field, "is not a known location")
		}
	}
	return p, err
}

// takeFrom takes items off location from in tx, variants locked in id
// order, then their levels. Errors: CONFLICT naming the short units.
func takeFrom(tx *gorm.DB, from Place, items []Item) error {
	items = merge(items)
	ids := make([]uuid.UUID, len(items))
	for i, it := range items {
		ids[i] = it.VariantID
	}
	var rows []struct {
		ID                             uuid.UUID
		SKU                            string
		Inventory, Reserved, Committed int
		OnHand                         int
	}
	if err := tx.Raw(`SELECT id, sku, inventory, reserved, committed FROM variants WHERE id IN ? ORDER BY id FOR UPDATE`, ids).
		Scan(&rows).Error; err != nil {
		return fmt.Errorf("stock.take: %w", err)
	}
	// The levels in a statement of their own, after the variants' locks: a
	// move that held them has committed by now and this statement's
	// snapshot sees it (a join in the locking statement would read the
	// level as it was before the wait).
	var levels []struct {
		VariantID    uuid.UUID
		OnHand, Held int
	}
	if err := tx.Raw(`SELECT variant_id, on_hand, held FROM stock_levels WHERE location_id = ? AND variant_id IN ? FOR UPDATE`,
		from.ID, ids).Scan(&levels).Error; err != nil {
		return fmt.Errorf("stock.take: %w", err)
	}
	for _, l := range levels {
		for i := range rows {
			if rows[i].ID == l.VariantID {
				// Units held for orders (holds.go) stay for them.
				rows[i].OnHand = l.OnHand - l.Held
			}
		}
	}
	byID := make(map[uuid.UUID]int, len(rows))
	for i, r := range rows {
		byID[r.ID] = i
	}
	var short []map[string]any
	for i, it := range items {
		k, ok := byID[it.VariantID]
		if !ok {
			return apperr.Invalid("items["+strconv.Itoa(i)+"].variantId", "is not a known variant")
		}
		r := rows[k]
		free := r.OnHand
		if from.Sells {
			// The other selling locations must still cover what orders and
			// checkouts hold.
			free = min(free, r.Inventory-r.Committed-r.Reserved)
		}
		if free < it.Quantity {
			short = append(short, map[string]any{"variantId": r.ID, "sku": r.SKU, "quantity": it.Quantity, "onHand": r.OnHand,
				"movable": max(free, 0)})
		}
	}
	if short != nil {
		return apperr.Wrap(apperr.Conflict, "the source location cannot give these units: it lacks them or they are committed to orders", ErrShortage).
			WithDetails(map[string]any{"short": short})
	}
	sells := 0
	if from.Sells {
		sells = 1
	}
	for _, it := range items {
		if err := tx.Exec(`UPDATE stock_levels SET on_hand = on_hand - ? WHERE variant_id = ? AND location_id = ?`,
			it.Quantity, it.VariantID, from.ID).Error; err != nil {
			return fmt.Errorf("stock.take: %w", err)
		}
		if sells == 1 {
			if err := tx.Exec(`UPDATE variants SET inventory = inventory - ?, updated_at = now() WHERE id = ?`,
				it.Quantity, it.VariantID).Error; err != nil {
				return fmt.Errorf("stock.take: %w", err)
			}
		}
	}
	return nil
}

// putAt puts items on hand at location to in tx (variants locked in id
// order first, as takeFrom does).
func putAt(tx *gorm.DB, to Place, items []Item) error {
	items = merge(items)
	ids := make([]uuid.UUID, len(items))
	for i, it := range items {
		ids[i] = it.VariantID
	}
	if err := tx.Exec(`SELECT id FROM variants WHERE id IN ? ORDER BY id FOR UPDATE`, ids).Error; err != nil {
		return fmt.Errorf("stock.put: %w", err)
	}
	for _, it := range items {
		if err := tx.Exec(`INSERT INTO stock_levels (variant_id, location_id, on_hand) VALUES (?, ?, ?)
			ON CONFLICT (variant_id, location_id) DO UPDATE SET on_hand = stock_levels.on_hand + EXCLUDED.on_hand`,
			it.VariantID, to.ID, it.Quantity).Error; err != nil {
			return fmt.Errorf("stock.put: %w", err)
		}
		if to.Sells {
			if err := tx.Exec(`UPDATE variants SET inventory = inventory + ?, updated_at = now() WHERE id = ?`,
				it.Quantity, it.VariantID).Error; err != nil {
				return fmt.Errorf("stock.put: %w", err)
			}
		}
	}
	return nil
}

// ReceiveTransfer puts units of transfer id on hand at its destination
// (and into the variants' inventory when it sells): items' quantities, or,
// when items is empty, every unit still in transit. The transfer is then
// received, or partially_received while units remain in transit.
// Concurrent receipts are serialized on the transfer's row, so together
// they never put on hand more than was sent. Errors: NOT_FOUND, CONFLICT
// (received or cancelled), VALIDATION_ERROR (items[i].variantId not in the
// transfer or listed twice, items[i].quantity not positive or more than
// is still in transit).
func (s *Levels) ReceiveTransfer(ctx context.Context, id uuid.UUID, items []Item) (*Transfer, error) {
	return s.endTransfer(ctx, id, TransferReceived, items)
}

// CancelTransfer puts the units of transfer id still in transit back on
// hand at its source; a tax invoice of the transfer is reduced by a credit
// note for those units only. Errors: NOT_FOUND, CONFLICT (received or
// cancelled).
func (s *Levels) CancelTransfer(ctx context.Context, id uuid.UUID) (*Transfer, error) {
	return s.endTransfer(ctx, id, TransferCancelled, nil)
}

// endTransfer moves the units of transfer id still in transit: to its
// destination (status received; only items when given) or back to its
// source (cancelled). A keyed request retried after its process died
// answers with the transfer as it is now instead of a CONFLICT: the move
// records itself under the request's key.
func (s *Levels) endTransfer(ctx context.Context, id uuid.UUID, status string, asked []Item) (*Transfer, error) {
	if t, ok, err := s.transferMade(ctx); ok {
		return t, err
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var t Transfer
		if err := tx.Raw(`SELECT * FROM stock_transfers WHERE id = ? FOR UPDATE`, id).Scan(&t).Error; err != nil {
			return fmt.Errorf("stock.end_transfer: %w", err)
		}
		if t.ID == uuid.Nil {
			return apperr.Missing("transfer")
		}
		if !open(t.Status) {
			return apperr.Conflictf("the transfer is %s, not in transit", t.Status).WithDetails(map[string]any{"status": t.Status})
		}
		// Read after the row's lock: a receipt that held it has committed
		// and its counts are seen.
		lines, err := transferLines(tx, id)
		if err != nil {
			return err
		}
		moving, rest, err := unitsToMove(lines, asked)
		if err != nil {
			return err
		}
		// A location is not deleted while a transfer of it is open.
		at := *t.ToLocationID
		next, col := TransferReceived, "received_at = now(), "
		switch {
		case status == TransferCancelled:
			at, next, col = *t.FromLocationID, TransferCancelled, "cancelled_at = now(), "
		case rest > 0:
			next, col = TransferPartiallyReceived, ""
		}
		place, err := LockPlace(tx, at)
		if err != nil {
			return err
		}
		if len(moving) > 0 {
			if err := putAt(tx, place, moving); err != nil {
				return err
			}
		}
		if status == TransferReceived {
			for _, it := range moving {
				if err := tx.Exec(`UPDATE stock_transfer_items SET received = received + ? WHERE transfer_id = ? AND variant_id = ?`,
					it.Quantity, id, it.VariantID).Error; err != nil {
					return fmt.Errorf("stock.end_transfer: %w", err)
				}
			}
		}
		if err := tx.Exec(`UPDATE stock_transfers SET status = ?, `+col+`updated_at = now() WHERE id = ?`, next, id).Error; err != nil {
			return fmt.Errorf("stock.end_transfer: %w", err)
		}
		// Goods sent to another GSTIN that come back: the supply's invoice
		// is reduced by a credit note for the units that come back, in this
		// transaction (the units received stay supplied).
		if status == TransferCancelled && s.docs != nil {
			back := make([]int, len(lines))
			for i, l := range lines {
				back[i] = l.Quantity - l.Received
			}
			if err := s.docs.IssueTransferCreditNote(tx, id, back); err != nil {
				return err
			}
		}
		return idempotency.RecordChange(uow.Within(ctx, tx), id.String())
	})
	if e := invoice.SeriesFull(err); e != nil {
		return nil, e
	}
	if err != nil {
		return nil, err
	}
	if status == TransferCancelled && s.docs != nil {
		s.docs.NudgeTransferReports(ctx, s.queue, s.log, id)
	}
	return s.Transfer(ctx, id)
}

// transferLine is an item of a transfer and how many of its units were
// received.
type transferLine struct {
	VariantID          uuid.UUID
	Quantity, Received int
}

// transferLines is transfer id's items in variant order (the order of its
// document's lines).
func transferLines(tx *gorm.DB, id uuid.UUID) ([]transferLine, error) {
	var lines []transferLine
	if err := tx.Raw(`SELECT variant_id, quantity, received FROM stock_transfer_items WHERE transfer_id = ? ORDER BY variant_id`, id).
		Scan(&lines).Error; err != nil {
		return nil, fmt.Errorf("stock.transfer_lines: %w", err)
	}
	return lines, nil
}

// unitsToMove checks asked against lines and returns the units to move and
// how many stay in transit after: asked, or every unit still in transit
// when asked is empty. Errors: VALIDATION_ERROR naming items[i].variantId
// or items[i].quantity.
func unitsToMove(lines []transferLine, asked []Item) (moving []Item, rest int, err error) {
	left := map[uuid.UUID]int{}
	for _, l := range lines {
		left[l.VariantID] = l.Quantity - l.Received
	}
	if len(asked) == 0 {
		for _, l := range lines {
			if n := l.Quantity - l.Received; n > 0 {
				moving = append(moving, Item{VariantID: l.VariantID, Quantity: n})
			}
		}
		return moving, 0, nil
	}
	seen := map[uuid.UUID]bool{}
	for i, it := range asked {
		f := "items[" + strconv.Itoa(i) + "]."
		n, ok := left[it.VariantID]
		switch {
		case !ok:
			return nil, 0, apperr.Invalid(f+"variantId", "is not a variant of this transfer")
		case seen[it.VariantID]:
			return nil, 0, apperr.Invalid(f+"variantId", "names a variant already listed")
		case it.Quantity < 1:
			return nil, 0, apperr.Invalid(f+"quantity", "must be at least 1")
		case it.Quantity > n:
			return nil, 0, apperr.Invalid(f+"quantity", "must be at most the "+strconv.Itoa(n)+" units still in transit")
		}
		seen[it.VariantID] = true
		moving = append(moving, it)
		left[it.VariantID] = n - it.Quantity
	}
	for _, n := range left {
		rest += n
	}
	return moving, rest, nil
}

// transferItemValues is transfer id's items, the values given with them
// and the units of each received.
func transferItemValues(tx *gorm.DB, id uuid.UUID) ([]Item, map[uuid.UUID]money.Amount, map[uuid.UUID]int, error) {
	var rows []struct {
		VariantID          uuid.UUID
		Quantity, Received int
		Value              *money.Amount
	}
	if err := tx.Raw(`SELECT variant_id, quantity, received, value FROM stock_transfer_items WHERE transfer_id = ? ORDER BY variant_id`, id).
		Scan(&rows).Error; err != nil {
		return nil, nil, nil, fmt.Errorf("stock.transfer_items: %w", err)
	}
	items := make([]Item, len(rows))
	values := map[uuid.UUID]money.Amount{}
	received := map[uuid.UUID]int{}
	for i, r := range rows {
		items[i] = Item{VariantID: r.VariantID, Quantity: r.Quantity}
		if r.Value != nil {
			values[r.VariantID] = *r.Value
		}
		received[r.VariantID] = r.Received
	}
	return items, values, received, nil
}

// maxUnitValue bounds a transfer item's value per unit (₹1 crore).
const maxUnitValue = money.Amount(1e9)

// UseDocuments makes transfers issue their tax documents with docs: a tax
// invoice between GSTINs, a delivery challan under one (docs/DECISIONS.md
// "Stock transfers between GSTINs"). It returns s.
func (s *Levels) UseDocuments(docs *invoice.Service) *Levels {
	s.docs = docs
	return s
}

// withDocuments fills ts' documents, in one statement.
func (s *Levels) withDocuments(db *gorm.DB, ts []Transfer) error {
	if s.docs == nil || len(ts) == 0 {
		return nil
	}
	ids := make([]uuid.UUID, len(ts))
	for i := range ts {
		ids[i] = ts[i].ID
	}
	docs, err := s.docs.TransferDocuments(db, ids)
	if err != nil {
		return err
	}
	bills, err := einvoice.TransferEwayBillsOf(db.Statement.Context, db, ids)
	if err != nil {
		return err
	}
	for i := range ts {
		ts[i].Documents = docs[ts[i].ID]
		ts[i].EwayBill = bills[ts[i].ID]
	}
	return nil
}

// TransferDocumentPDF returns the file name and PDF of transfer id's tax
// invoice or delivery challan. Errors: NOT_FOUND (no transfer, or none).
func (s *Levels) TransferDocumentPDF(ctx context.Context, id uuid.UUID) (string, []byte, error) {
	if s.docs == nil {
		return "", nil, apperr.Missing("document")
	}
	return s.docs.TransferDocumentPDF(ctx, id)
}

// Transfer returns transfer id with its items. Errors: NOT_FOUND.
func (s *Levels) Transfer(ctx context.Context, id uuid.UUID) (*Transfer, error) {
	db := s.db.WithContext(ctx)
	var t Transfer
	if err := db.Raw(`SELECT * FROM stock_transfers WHERE id = ?`, id).Scan(&t).Error; err != nil {
		return nil, fmt.Errorf("stock.transfer: %w", err)
	}
	if t.ID == uuid.Nil {
		return nil, apperr.Missing("transfer")
	}
	var err error
	if t.Items, t.Values, t.Received, err = transferItemValues(db, id); err != nil {
		return nil, err
	}
	one := []Transfer{t}
	if err := s.withDocuments(db, one); err != nil {
		return nil, err
	}
	return &one[0], nil
}

// Transfers returns a page of transfers, newest first, those of status
// when not empty, with their count.
func (s *Levels) Transfers(ctx context.Context, status string, w paging.Window) ([]Transfer, int64, error) {
	db := s.db.WithContext(ctx)
	q := db.Table("stock_transfers")
	if status != "" {
		q = q.Where("status = ?", status)
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("stock.transfers: %w", err)
	}
	var ts []Transfer
	if err := q.Order("created_at DESC, id").Limit(w.Limit).Offset(w.Offset).Find(&ts).Error; err != nil {
		return nil, 0, fmt.Errorf("stock.transfers: %w", err)
	}
	for i := range ts {
		var err error
		if ts[i].Items, ts[i].Values, ts[i].Received, err = transferItemValues(db, ts[i].ID); err != nil {
			return nil, 0, err
		}
	}
	if err := s.withDocuments(db, ts); err != nil {
		return nil, 0, err
	}
	return ts, total, nil
}

func nullIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nullIfZero(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}
