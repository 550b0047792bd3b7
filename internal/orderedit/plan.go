package orderedit

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/pricing"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/taxrule"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// current is an order line as an edit finds it.
type current struct {
	models.OrderItem
	// Shipped is the units in live fulfilments: they cannot change.
	Shipped int
}

// plan is an edit worked out on the locked order: the lines it changes
// and adds, the order's new totals, and what it does to the money.
type plan struct {
	order   models.Order // with the new totals and payment fields
	changed []models.OrderItem
	added   []models.OrderItem
	// removed are the lines whose every unit the edit takes away: no unit
	// of them shipped or was cancelled, so nothing refers to them.
	removed []uuid.UUID
	lines   []Line
	// commit are the units to take from available, release those to give
	// back; left is what each line it lowers still has to ship after it
	// (for the units held for it: stock.Releases).
	commit, release []stock.Item
	left            map[uuid.UUID]int
	difference      money.Amount
	refundDue       money.Amount
	summary         []string
}

// readLines returns the lines of order id with their shipped units (in
// fulfilments that are not cancelled or returned to origin).
func readLines(tx *gorm.DB, id uuid.UUID) ([]current, error) {
	var ls []current
	err := tx.Raw(`SELECT i.*, COALESCE(s.units, 0) AS shipped
		FROM order_items i LEFT JOIN (
			SELECT fi.order_item_id, sum(fi.quantity) AS units
			FROM fulfillments f JOIN fulfillment_items fi ON fi.fulfillment_id = f.id
			WHERE f.order_id = ? AND f.status IN ? GROUP BY fi.order_item_id) s ON s.order_item_id = i.id
		WHERE i.order_id = ? ORDER BY i.created_at, i.id`,
		id, []string{models.ShipmentShipped, models.ShipmentDelivered}, id).Scan(&ls).Error
	if err != nil {
		return nil, fmt.Errorf("orderedit.lines: %w", err)
	}
	return ls, nil
}

// work plans request r on the locked order o: checks it against the lines,
// prices what it adds, and computes the new totals. It writes nothing.
func (s *Service) work(ctx context.Context, tx *gorm.DB, o *models.Order, r Request) (*plan, error) {
	if o.Status != models.OrderConfirmed && o.Status != models.OrderProcessing {
		issue := "is " + o.Status + ": only a confirmed or processing order can be edited"
		return nil, apperr.Invalid("status", issue).WithDetails(map[string]any{"field": "status", "issue": issue,
			"status": o.Status, "allowed": []string{models.OrderConfirmed, models.OrderProcessing}})
	}
	ls, err := readLines(tx, o.ID)
	if err != nil {
		return nil, err
	}
	p := &plan{order: *o}
	n := &p.order
	toShip := 0
	byID := make(map[uuid.UUID]int, len(ls))
	for i, l := range ls {
		byID[l.ID] = i
		toShip += l.Quantity - l.CancelledQuantity - l.Shipped
	}
	seen := map[uuid.UUID]bool{}
	for i, c := range r.Items {
		field := fmt.Sprintf("items[%d]", i)
		at, ok := byID[c.OrderItemID]
		if !ok {
			return nil, apperr.Invalid(field+".orderItemId", "is not a line of this order")
		}
		if seen[c.OrderItemID] {
			return nil, apperr.Invalid(field+".orderItemId", "is named twice")
		}
		seen[c.OrderItemID] = true
		l := ls[at]
		live := l.Quantity - l.CancelledQuantity
		if c.Quantity < l.Shipped {
			return nil, apperr.Invalid(field+".quantity", fmt.Sprintf("only unshipped units can change: %d of this line shipped", l.Shipped))
		}
		if c.Quantity == live {
			continue
		}
		if c.Quantity > live && l.VariantID == nil {
			return nil, apperr.Invalid(field+".quantity", "the line's variant was deleted: it can only be lowered")
		}
		toShip += c.Quantity - live
		item := resize(l.OrderItem, c.Quantity+l.CancelledQuantity)
		if item.Quantity == 0 {
			// Nothing of it shipped or was cancelled: the line goes, unless a
			// cancelled shipment still names it.
			if err := checkUnreferenced(tx, l.ID, field); err != nil {
				return nil, err
			}
			p.removed = append(p.removed, l.ID)
		} else {
			p.changed = append(p.changed, item)
		}
		p.account(l.OrderItem, item)
		if l.VariantID != nil {
			if d := c.Quantity - live; d > 0 {
				p.commit = append(p.commit, stock.Item{VariantID: *l.VariantID, Quantity: d})
			} else {
				p.release = append(p.release, stock.Item{VariantID: *l.VariantID, Quantity: -d})
				if p.left == nil {
					p.left = map[uuid.UUID]int{}
				}
				p.left[l.ID] = c.Quantity - l.Shipped
			}
		}
		p.lines = append(p.lines, lineOf(l.OrderItem, &item))
		p.summary = append(p.summary, fmt.Sprintf("%s %d → %d", l.SKU, live, c.Quantity))
	}
	if len(r.Add) > 0 {
		added, err := s.price(ctx, tx, o, r.Add)
		if err != nil {
			return nil, err
		}
		for _, it := range added {
			toShip += it.Quantity
			p.added = append(p.added, it)
			p.account(models.OrderItem{}, it)
			p.commit = append(p.commit, stock.Item{VariantID: *it.VariantID, Quantity: it.Quantity})
			p.lines = append(p.lines, lineOf(models.OrderItem{}, &it))
			p.summary = append(p.summary, fmt.Sprintf("%s +%d", it.SKU, it.Quantity))
		}
	}
	if len(p.lines) == 0 {
		return nil, apperr.Invalid("items", "the edit changes nothing: give a new quantity for a line, or lines to add")
	}
	if toShip <= 0 {
		return nil, apperr.Invalid("items", "an edit leaves at least one unit to ship; to stop the rest, cancel the unshipped units")
	}
	n.CGSTTotal, n.SGSTTotal, n.IGSTTotal = s.split(o, n.TaxTotal)
	p.difference = n.Total - o.Total
	p.settle(o)
	return p, nil
}

// checkUnreferenced refuses to remove line id when a (cancelled)
// fulfilment still names it: its record would go with the line.
func checkUnreferenced(tx *gorm.DB, id uuid.UUID, field string) error {
	var n int64
	if err := tx.Raw(`SELECT count(*) FROM fulfillment_items WHERE order_item_id = ?`, id).Scan(&n).Error; err != nil {
		return fmt.Errorf("orderedit.lines: %w", err)
	}
	if n > 0 {
		return apperr.Invalid(field+".quantity", "the line was in a cancelled shipment and cannot be removed: keep at least one unit, or cancel its unshipped units")
	}
	return nil
}

// resize is line l sold as sold units at its own unit price and per-unit
// share of its discounts: the units kept cost what they did (the first
// ones of the line, money.UnitsShare, as returns and invoices split a
// line, so the units already invoiced keep their amounts), and units added
// cost ⌊lineTotal / quantity⌋ each, leaving the line's odd paise on its
// first units. The line keeps the GST rate it was sold at, a value rule's
// included: its units' value does not change, and a placed order is not
// re-taxed by a rule created or deleted since (docs/DECISIONS.md "GST rates
// that depend on value").
func resize(l models.OrderItem, sold int) models.OrderItem {
	out := l
	switch {
	case sold < l.Quantity:
		out.LineTotal = money.UnitsShare(l.LineTotal, l.Quantity, 0, sold)
	default:
		out.LineTotal = l.LineTotal + l.LineTotal/money.Amount(l.Quantity)*money.Amount(sold-l.Quantity)
	}
	out.Quantity = sold
	out.DiscountAmount = l.UnitPrice*money.Amount(sold) - out.LineTotal
	out.TaxAmount, out.CessAmount = money.IncludedGST(out.LineTotal, l.GSTRate, l.CessRate)
	return out
}

// account moves the new order's totals from line before to after (a zero
// before for an added line).
func (p *plan) account(before, after models.OrderItem) {
	n := &p.order
	n.Subtotal += after.UnitPrice*money.Amount(after.Quantity) - before.UnitPrice*money.Amount(before.Quantity)
	n.DiscountTotal += after.DiscountAmount - before.DiscountAmount
	n.TaxTotal += after.TaxAmount - before.TaxAmount
	n.CessTotal += after.CessAmount - before.CessAmount
	n.Total += after.LineTotal - before.LineTotal
}

// settle decides what the edit does to the money of o: an unpaid order
// (COD, offline) is simply due its new total; on money already taken, a
// higher total is owed as balanceDue (partially_paid) and a lower one first
// clears what is owed, then is refunded, up to what is left to refund.
func (p *plan) settle(o *models.Order) {
	n := &p.order
	if o.PaymentStatus == models.PaymentPending || p.difference == 0 {
		return
	}
	if p.difference > 0 {
		n.BalanceDue += p.difference
		n.PaymentStatus = models.PaymentPartiallyPaid
		return
	}
	lower := -p.difference
	cleared := money.Min(lower, n.BalanceDue)
	n.BalanceDue -= cleared
	p.refundDue = money.Min(lower-cleared, max(n.PaidTotal-n.RefundedTotal, 0))
	if n.BalanceDue == 0 && n.PaymentStatus == models.PaymentPartiallyPaid {
		n.PaymentStatus = models.PaymentPaid
		if n.RefundedTotal > 0 {
			n.PaymentStatus = models.PaymentPartiallyRefunded
		}
	}
}

// split is the GST split of tax for order o: the regime it was placed
// under (intra-state CGST+SGST, or IGST), or, for an order that carried no
// tax, the one its shipping state gives.
func (s *Service) split(o *models.Order, tax money.Amount) (cgst, sgst, igst money.Amount) {
	switch {
	case o.CGSTTotal+o.SGSTTotal > 0:
		return money.SplitGST(tax, true)
	case o.IGSTTotal > 0:
		return money.SplitGST(tax, false)
	}
	return order.GSTSplit(tax, shipState(o.ShippingAddress), s.set.StoreState)
}

// price prices the lines to add at today's price for the order's
// customer's group, with the order's discount taken off them again by its
// rule (docs/DECISIONS.md "Order edits").
func (s *Service) price(ctx context.Context, tx *gorm.DB, o *models.Order, adds []Addition) ([]models.OrderItem, error) {
	ids := make([]uuid.UUID, len(adds))
	for i, a := range adds {
		ids[i] = a.VariantID
	}
	type variantRow struct {
		ID         uuid.UUID
		ProductID  uuid.UUID
		CategoryID *uuid.UUID
		Title, SKU string
		HSNCode    string
		GSTRate    money.Rate
		CessRate   money.Rate
		Unit       string
		Active     bool
		ValueRule  taxrule.Found
	}
	var rows []variantRow
	if err := tx.Raw(`SELECT v.id, v.product_id, p.category_id, p.title, v.sku, p.hsn_code, p.gst_rate, p.cess_rate, p.unit,
		p.status = 'active' AS active, `+taxrule.ColumnSQL+`
		FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id IN ?`, ids).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("orderedit.price: %w", err)
	}
	variants := make(map[uuid.UUID]variantRow, len(rows))
	for _, r := range rows {
		variants[r.ID] = r
	}
	group, err := customerGroup(tx, o.CustomerID)
	if err != nil {
		return nil, err
	}
	prices, err := pricing.Resolve(ctx, tx, group, ids)
	if err != nil {
		return nil, err
	}
	var rule *discount.Target
	if o.DiscountID != nil {
		if rule, err = discount.LoadByID(ctx, tx, *o.DiscountID); apperr.CodeOf(err) == apperr.NotFound {
			rule, err = nil, nil // deleted since: nothing to apply again
		}
		if err != nil {
			return nil, err
		}
	}
	out := make([]models.OrderItem, len(adds))
	for i, a := range adds {
		v, ok := variants[a.VariantID]
		if !ok || !v.Active {
			return nil, apperr.Invalid(fmt.Sprintf("add[%d].variantId", i), "is not a variant of an active product")
		}
		pid, vid := v.ProductID, v.ID
		gross := prices[a.VariantID].Amount * money.Amount(a.Quantity)
		var off money.Amount
		if rule != nil && rule.Discount.Type == models.DiscountPercentage &&
			rule.Covers(discount.Line{ProductID: pid, CategoryID: v.CategoryID, Total: gross}) {
			off = gross.Percent(money.Rate(rule.Discount.Value))
		}
		net := gross - off
		// The rate as cart.Compute decides it: the value rule's for the
		// line's value after the discount, else the product's.
		rate := taxrule.Rate(v.GSTRate, v.ValueRule.Rule(), net, a.Quantity, v.CessRate)
		tax, cess := money.IncludedGST(net, rate, v.CessRate)
		out[i] = models.OrderItem{ID: uuid.New(), OrderID: o.ID, ProductID: &pid, VariantID: &vid, PricedLine: models.PricedLine{
			Title: v.Title, SKU: v.SKU, Quantity: a.Quantity, UnitPrice: prices[a.VariantID].Amount, DiscountAmount: off,
			LineTotal: net, GSTRate: rate, TaxAmount: tax, HSNCode: v.HSNCode, CessRate: v.CessRate, CessAmount: cess,
			Unit: v.Unit}}
	}
	return out, nil
}

// customerGroup is the price group of the order's customer: none for a
// guest, as at checkout.
func customerGroup(tx *gorm.DB, id uuid.UUID) (*uuid.UUID, error) {
	var c models.Customer
	if err := tx.Select("id", "is_guest", "customer_group_id").Take(&c, "id = ?", id).Error; err != nil {
		return nil, fmt.Errorf("orderedit.customer: %w", err)
	}
	if c.IsGuest {
		return nil, nil
	}
	return c.CustomerGroupID, nil
}

// shipState is the state of a stored shipping address ("" when absent).
func shipState(addr []byte) string {
	var a struct {
		State string `json:"state"`
	}
	if len(addr) > 0 {
		_ = json.Unmarshal(addr, &a) // an unreadable address has no state
	}
	return strings.TrimSpace(a.State)
}
