// Package orderedit changes the lines of a placed order (docs/DECISIONS.md
// "Order edits"): new quantities for its lines and lines added, priced and
// taxed as the order was, the stock moved, the edit kept with the lines
// before and after, and the money settled: a higher total of a paid order
// owed as its balance, a lower one refunded. Like package refund it sits
// above the domains the change spans (order, stock, refund).
package orderedit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/refund"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Service edits placed orders.
type Service struct {
	db      *gorm.DB
	units   uow.Runner
	refunds *refund.Service
	links   gateway.LinkProvider
	queue   tasks.Enqueuer
	set     Settings
	log     *slog.Logger
}

// Settings are the service's configuration.
type Settings struct {
	// StoreState decides the GST split of an order that carried no tax
	// before its edit.
	StoreState string
	// Provider is the payment provider's name, recorded on a balance paid
	// by link; LinkTTL how long such a link takes payments.
	Provider string
	LinkTTL  time.Duration
}

// New returns the service; links makes the payment links of balances.
func New(db *gorm.DB, queue tasks.Enqueuer, refunds *refund.Service, links gateway.LinkProvider, set Settings, log *slog.Logger) *Service {
	return &Service{db: db, units: uow.NewRunner(db, queue, log), refunds: refunds, links: links, queue: queue, set: set, log: log}
}

// Change is a line's new quantity: its units to ship and shipped, not
// counting those cancelled before they shipped.
type Change struct {
	OrderItemID uuid.UUID
	Quantity    int
}

// Addition is a line to add.
type Addition struct {
	VariantID uuid.UUID
	Quantity  int
}

// Request is an edit of an order.
type Request struct {
	Items []Change
	Add   []Addition
	Note  string
	// DryRun works the edit out and writes nothing.
	DryRun bool
	// Refund is how a lower total is refunded on an order not paid through
	// the gateway: by hand, with its reference (required then).
	Refund refund.Manual
	// MayRefund says the actor holds the refunds permission: an edit that
	// refunds is refused without it (a dry run shows it all the same).
	MayRefund bool
	By        audit.Actor
}

// Line is a line the edit changes or adds, before and after.
type Line struct {
	// OrderItemID is nil for a line a dry run would add.
	OrderItemID     *uuid.UUID   `json:"orderItemId"`
	VariantID       *uuid.UUID   `json:"variantId"`
	Title           string       `json:"title"`
	SKU             string       `json:"sku"`
	UnitPrice       money.Amount `json:"unitPrice"`
	Added           bool         `json:"added"`
	QuantityBefore  int          `json:"quantityBefore"`
	QuantityAfter   int          `json:"quantityAfter"`
	LineTotalBefore money.Amount `json:"lineTotalBefore"`
	LineTotalAfter  money.Amount `json:"lineTotalAfter"`
	TaxAmountAfter  money.Amount `json:"taxAmountAfter"`
}

// lineOf is the edit's line of before (zero for an added one) becoming after.
func lineOf(before models.OrderItem, after *models.OrderItem) Line {
	id := after.ID
	return Line{OrderItemID: &id, VariantID: after.VariantID, Title: after.Title, SKU: after.SKU, UnitPrice: after.UnitPrice,
		Added: before.ID == uuid.Nil, QuantityBefore: before.Quantity - before.CancelledQuantity,
		QuantityAfter: after.Quantity - after.CancelledQuantity, LineTotalBefore: before.LineTotal,
		LineTotalAfter: after.LineTotal, TaxAmountAfter: after.TaxAmount}
}

// Result is an edit worked out (a dry run) or applied.
type Result struct {
	// Order is, for a dry run, the order as the edit would leave it, with
	// its lines; an applied edit is read back from the order.
	Order models.Order
	// EditID is the applied edit's id; nil for a dry run.
	EditID *uuid.UUID
	// Difference is the new total less the previous one.
	Difference money.Amount
	Lines      []Line
	// RefundAmount is what the edit refunds; Refund the refund made (nil
	// for none, or when making it failed: RefundError says why, and the
	// edit stands, to be refunded from the order's refund action).
	RefundAmount money.Amount
	Refund       *models.Refund
	RefundError  *apperr.Error
}

// errDryRun ends a dry run's transaction without writing.
var errDryRun = errors.New("orderedit: dry run")

// Edit edits order id as r asks. The order row is locked for the whole
// change, so edits, fulfilments, refunds and payments of one order run one
// after the other. Added units are committed (CONFLICT when a variant is
// short), removed ones released; the lines, the order's totals, tax split,
// balance and payment status change in one transaction with the edit's row,
// a history note, order.edited and the audit entry. A lower total of money
// already taken is refunded after the commit (through the gateway, or by
// hand with r.Refund for an order not paid through it). Errors: NOT_FOUND,
// VALIDATION_ERROR (the order is not confirmed or processing, shipped units,
// unknown lines or variants, nothing left to ship, a manual refund without
// its reference), FORBIDDEN (a refund without r.MayRefund), CONFLICT (stock
// short). A keyed request retried after its process died answers with the
// edit it made instead of editing the order again (see made).
func (s *Service) Edit(ctx context.Context, id uuid.UUID, r Request) (*Result, error) {
	if r.DryRun {
		return s.preview(ctx, id, r)
	}
	if res, ok, err := s.made(ctx, id, r); ok {
		return res, err
	}
	var res Result
	var o models.Order
	var p *plan
	err := s.units.Run(ctx, func(u *uow.Unit) error {
		if err := u.Tx().Clauses(clause.Locking{Strength: "UPDATE"}).Take(&o, "id = ?", id).Error; err != nil {
			return err
		}
		var err error
		if p, err = s.work(ctx, u.Tx(), &o, r); err != nil {
			return err
		}
		if err := checkRefund(&o, p, r.Refund, true); err != nil {
			return err
		}
		if p.refundDue > 0 && !r.MayRefund {
			return apperr.New(apperr.Forbidden, "this edit refunds "+p.refundDue.String()+", which needs the refunds permission").
				WithDetails(map[string]any{"refundAmount": p.refundDue})
		}
		if err := stock.CommitDirect(u.Tx(), p.commit); err != nil {
			return err
		}
		var release []stock.HoldRelease
		if p.left != nil {
			holds, err := stock.HoldsOf(u.Tx(), o.ID)
			if err != nil {
				return err
			}
			release = stock.Releases(holds, uuid.Nil, p.left)
		}
		stock.StageUncommit(u, p.release, release)
		editID := uuid.New()
		res.EditID = &editID
		if err := s.stage(u, &o, p, editID, r); err != nil {
			return err
		}
		return idempotency.RecordChange(u, editID.String())
	})
	if err != nil {
		return nil, translate(err)
	}
	res.Difference, res.Lines, res.RefundAmount = p.difference, p.lines, p.refundDue
	if p.refundDue > 0 {
		s.refund(ctx, &o, p, *res.EditID, r, &res)
	}
	return &res, nil
}

// preview works r out on order id in a transaction that writes nothing,
// checking the added units are available as the edit would.
func (s *Service) preview(ctx context.Context, id uuid.UUID, r Request) (*Result, error) {
	var res Result
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var o models.Order
		if err := tx.Preload("Items", func(tx *gorm.DB) *gorm.DB { return tx.Order("created_at, id") }).
			Take(&o, "id = ?", id).Error; err != nil {
			return err
		}
		p, err := s.work(ctx, tx, &o, r)
		if err != nil {
			return err
		}
		// A preview is how staff learn the refund before making it: the
		// reference it will need is not asked for yet.
		if err := checkRefund(&o, p, r.Refund, false); err != nil {
			return err
		}
		if err := stock.CommitDirect(tx, p.commit); err != nil {
			return err
		}
		for i := range p.lines {
			if p.lines[i].Added {
				p.lines[i].OrderItemID = nil
			}
		}
		res.Order, res.Difference, res.Lines, res.RefundAmount = p.order, p.difference, p.lines, p.refundDue
		res.Order.Items = merged(p)
		return errDryRun
	})
	if err != nil && !errors.Is(err, errDryRun) {
		return nil, translate(err)
	}
	return &res, nil
}

// merged is the order's lines as the edit leaves them.
func merged(p *plan) []models.OrderItem {
	byID := make(map[uuid.UUID]models.OrderItem, len(p.changed))
	for _, c := range p.changed {
		byID[c.ID] = c
	}
	var out []models.OrderItem
	for _, it := range p.order.Items {
		if slices.Contains(p.removed, it.ID) {
			continue
		}
		if c, ok := byID[it.ID]; ok {
			it = c
		}
		out = append(out, it)
	}
	return append(out, p.added...)
}

// checkRefund refuses an edit whose refund cannot be made: an order not
// paid through the gateway is refunded by hand, with a reference (the
// method, implied, may be given as "manual"); withReference is false for a
// preview, which makes no refund.
func checkRefund(o *models.Order, p *plan, m refund.Manual, withReference bool) error {
	if p.refundDue == 0 || o.PaymentMethod == models.PaymentOnline {
		return nil
	}
	if m.Method != "" && m.Method != models.RefundManual {
		return apperr.Invalid("method", `must be "manual": this order was not paid through the payment gateway`)
	}
	if withReference && strings.TrimSpace(m.Reference) == "" {
		return apperr.Invalid("reference", "is required: the edit refunds "+p.refundDue.String()+
			" by hand on an order not paid through the payment gateway (e.g. the bank transfer's UTR)")
	}
	return nil
}

// stage stages plan p of the locked order o as edit editID.
func (s *Service) stage(u *uow.Unit, o *models.Order, p *plan, editID uuid.UUID, r Request) error {
	for _, id := range p.removed {
		u.Update("order_items", id, `DELETE FROM order_items WHERE id = ?`, id)
	}
	for _, it := range p.changed {
		u.Update("order_items", it.ID, `UPDATE order_items SET quantity = ?, discount_amount = ?, line_total = ?, tax_amount = ?, cess_amount = ? WHERE id = ?`,
			it.Quantity, it.DiscountAmount, it.LineTotal, it.TaxAmount, it.CessAmount, it.ID)
	}
	if len(p.added) > 0 {
		if err := u.Create(&p.added); err != nil {
			return fmt.Errorf("orderedit: lines: %w", err)
		}
	}
	lines, err := json.Marshal(p.lines)
	if err != nil {
		return fmt.Errorf("orderedit: %w", err)
	}
	now := time.Now().UTC()
	n := &p.order
	edit := models.OrderEdit{ID: editID, OrderID: o.ID, AdminID: adminRef(r.By.AdminID), Note: r.Note, Lines: lines,
		PreviousTotal: o.Total, NewTotal: n.Total, Difference: p.difference, RefundAmount: p.refundDue,
		BalanceDue: n.BalanceDue, CreatedAt: now}
	if err := u.Create(&edit); err != nil {
		return fmt.Errorf("orderedit: %w", err)
	}
	n.FulfillmentStatus = models.FulfillmentUnfulfilled
	if o.FulfillmentStatus != models.FulfillmentUnfulfilled { // some units shipped, and some are left to
		n.FulfillmentStatus = models.FulfillmentPartiallyFulfilled
	}
	note := fmt.Sprintf("order edited (%s): total %s → %s", strings.Join(p.summary, ", "), o.Total, n.Total)
	if r.Note != "" {
		note += ": " + r.Note
	}
	if err := order.StageNote(u, o, note, r.By.AdminID); err != nil {
		return err
	}
	if err := order.StageMoves(u, o, nil, "", r.By.AdminID, map[string]any{
		"subtotal": n.Subtotal, "discount_total": n.DiscountTotal, "tax_total": n.TaxTotal,
		"cgst_total": n.CGSTTotal, "sgst_total": n.SGSTTotal, "igst_total": n.IGSTTotal, "cess_total": n.CessTotal, "total": n.Total,
		"balance_due": n.BalanceDue, "payment_status": n.PaymentStatus, "fulfillment_status": n.FulfillmentStatus,
		"edit_count": o.EditCount + 1,
	}); err != nil {
		return err
	}
	n.UpdatedAt = o.UpdatedAt
	order.StageRollup(u, o)
	if _, err := outbox.Stage(u, outbox.Draft{Type: outbox.OrderEdited, Data: EditedEvent{OrderID: o.ID, OrderNumber: o.OrderNumber,
		CustomerID: o.CustomerID, EditID: editID, PreviousTotal: o.Total, Total: n.Total, Difference: p.difference,
		RefundAmount: p.refundDue, BalanceDue: n.BalanceDue, PaymentStatus: n.PaymentStatus, Currency: o.Currency,
		Lines: p.lines, Note: r.Note, EditedAt: now}}); err != nil {
		return err
	}
	return audit.Stage(u, r.By.Audit, o.ID.String())
}

// refund refunds what edit editID of order o lowered its total by, after
// the edit committed; a refusal leaves the edit standing and is answered in
// res.
func (s *Service) refund(ctx context.Context, o *models.Order, p *plan, editID uuid.UUID, r Request, res *Result) {
	req := order.RefundRequest{Amount: p.refundDue, Reason: "order edit", AdminID: r.By.AdminID, OrderEditID: &editID,
		InitiatePaymentRefund: o.PaymentMethod == models.PaymentOnline}
	if !req.InitiatePaymentRefund {
		req.Method, req.Reference = models.RefundManual, strings.TrimSpace(r.Refund.Reference)
	}
	made, err := s.refunds.Refund(ctx, o.ID, req)
	if err != nil {
		e, ok := apperr.As(err)
		if !ok {
			e = apperr.Wrap(apperr.Internal, "the refund could not be made", err)
		}
		s.log.WarnContext(ctx, "order edit refund not made", "order_id", o.ID, "edit_id", editID, "error", err)
		res.RefundError = e
		return
	}
	res.Refund = &made.Refund
}

// EditedEvent is the data of order.edited (docs/WEBHOOKS.md).
type EditedEvent struct {
	OrderID       uuid.UUID    `json:"orderId"`
	OrderNumber   string       `json:"orderNumber"`
	CustomerID    uuid.UUID    `json:"customerId"`
	EditID        uuid.UUID    `json:"editId"`
	PreviousTotal money.Amount `json:"previousTotal"`
	Total         money.Amount `json:"total"`
	Difference    money.Amount `json:"difference"`
	RefundAmount  money.Amount `json:"refundAmount"`
	BalanceDue    money.Amount `json:"balanceDue"`
	PaymentStatus string       `json:"paymentStatus"`
	Currency      string       `json:"currency"`
	Lines         []Line       `json:"lines"`
	Note          string       `json:"note"`
	EditedAt      time.Time    `json:"editedAt"`
}

func adminRef(id uuid.UUID) *uuid.UUID {
	if id == uuid.Nil {
		return nil
	}
	return &id
}

// translate maps a failed edit: stock counters out of step are for
// reconcile to repair.
func translate(err error) error {
	if database.PgCode(err) == database.CheckViolation {
		return apperr.Wrap(apperr.Conflict, "the stock counters of this order's variants are out of step; run reconcile", err)
	}
	return database.Translate(err, "order")
}
