package cart

import (
	"strconv"

	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Codes of a MergeWarning.
const (
	// WarnNotEnoughStock: the variant's available stock, less what the
	// customer's cart holds already, took fewer units (or none).
	WarnNotEnoughStock = "NOT_ENOUGH_STOCK"
	// WarnCartFull: the customer's cart had no room for another line.
	WarnCartFull = "CART_FULL"
	// WarnLineLimit: the merged line would pass MaxQuantity units.
	WarnLineLimit = "LINE_LIMIT"
)

var warningMessages = map[string]string{
	WarnNotEnoughStock: "not enough stock to move every unit of this item from your guest cart",
	WarnCartFull:       "your cart is full (100 lines): this item from your guest cart was left out",
	WarnLineLimit:      "a cart line holds at most 1000 units: the rest of this item from your guest cart was left out",
}

// MergeWarning tells the client that a line of the guest cart did not move
// whole into the customer's cart, and why (docs/DECISIONS.md, "Cart merge").
type MergeWarning struct {
	Code      string    `json:"code"`
	Message   string    `json:"message"`
	VariantID uuid.UUID `json:"variantId"`
	// BundleSelection is set for a line of a bundle selection, which moves
	// whole or not at all (its quantities are the bundle's).
	BundleSelection *uuid.UUID `json:"bundleSelection,omitempty"`
	// Requested is the line's units in the guest cart; Merged those that
	// moved (0: the line was left out).
	Requested int `json:"requested"`
	Merged    int `json:"merged"`
}

func warn(code string, it models.CartItem, merged int) MergeWarning {
	return MergeWarning{Code: code, Message: warningMessages[code], VariantID: it.VariantID,
		BundleSelection: it.BundleSelection, Requested: it.Quantity, Merged: merged}
}

// mergeRoom is what the customer's cart holds, updated as lines move in, and
// the available stock of the guest's variants.
type mergeRoom struct {
	lines     int
	plain     map[uuid.UUID]int // units of each variant's plain line
	inCart    map[uuid.UUID]int // units of each variant over all lines
	available map[uuid.UUID]int
}

func loadRoom(tx *gorm.DB, cartID uuid.UUID, guest []models.CartItem) (*mergeRoom, error) {
	r := &mergeRoom{plain: map[uuid.UUID]int{}, inCart: map[uuid.UUID]int{}, available: map[uuid.UUID]int{}}
	var held []models.CartItem
	if err := tx.Raw(`SELECT variant_id, quantity, bundle_selection FROM cart_items WHERE cart_id = ?`, cartID).Scan(&held).Error; err != nil {
		return nil, wrap("merge_room", err)
	}
	r.lines = len(held)
	for _, it := range held {
		r.inCart[it.VariantID] += it.Quantity
		if it.BundleSelection == nil {
			r.plain[it.VariantID] = it.Quantity
		}
	}
	ids := make([]uuid.UUID, len(guest))
	for i, it := range guest {
		ids[i] = it.VariantID
	}
	var stock []struct {
		ID        uuid.UUID
		Available int
	}
	if err := tx.Raw(`SELECT id, GREATEST(inventory - reserved - committed, 0) AS available FROM variants WHERE id IN ?`, ids).
		Scan(&stock).Error; err != nil {
		return nil, wrap("merge_stock", err)
	}
	for _, s := range stock {
		r.available[s.ID] = s.Available
	}
	return r, nil
}

// takePlain decides how many units of plain guest line it move: as many as
// AddItem would accept (the line stays within MaxQuantity, the variant's
// units in the cart within its available stock, a new line within
// MaxLines). It returns the units and, when fewer than all, the reason.
func (r *mergeRoom) takePlain(it models.CartItem) (int, string) {
	room := MaxQuantity - r.plain[it.VariantID]
	stock := r.available[it.VariantID] - r.inCart[it.VariantID]
	n, code := it.Quantity, ""
	if room < n {
		n, code = room, WarnLineLimit
	}
	if stock < n {
		n, code = stock, WarnNotEnoughStock
	}
	if n > 0 && r.plain[it.VariantID] == 0 && r.lines >= MaxLines {
		n, code = 0, WarnCartFull
	}
	if n < 0 {
		n = 0
	}
	if n > 0 {
		if r.plain[it.VariantID] == 0 {
			r.lines++
		}
		r.plain[it.VariantID] += n
		r.inCart[it.VariantID] += n
	}
	return n, code
}

// takeBundle decides whether a bundle selection's lines move: all of them,
// when the cart has room for every line and stock for every unit, or none.
func (r *mergeRoom) takeBundle(lines []models.CartItem) string {
	if r.lines+len(lines) > MaxLines {
		return WarnCartFull
	}
	need := map[uuid.UUID]int{}
	for _, it := range lines {
		need[it.VariantID] += it.Quantity
	}
	for v, n := range need {
		if r.inCart[v]+n > r.available[v] {
			return WarnNotEnoughStock
		}
	}
	r.lines += len(lines)
	for v, n := range need {
		r.inCart[v] += n
	}
	return ""
}

// mergePlan is what moves into the customer's cart: units of plain guest
// lines (by item id, as array literals) and whole bundle selections, and
// the warnings of what does not.
type mergePlan struct {
	plainIDs, plainQty, selections []string
	warnings                       []MergeWarning
}

// plan walks the guest lines, oldest first, taking what fits into r.
func (r *mergeRoom) plan(guest []models.CartItem) mergePlan {
	var p mergePlan
	for _, group := range mergeGroups(guest) {
		if sel := group[0].BundleSelection; sel != nil {
			if code := r.takeBundle(group); code != "" {
				for _, it := range group {
					p.warnings = append(p.warnings, warn(code, it, 0))
				}
				continue
			}
			p.selections = append(p.selections, sel.String())
			continue
		}
		it := group[0]
		n, code := r.takePlain(it)
		if n > 0 {
			p.plainIDs, p.plainQty = append(p.plainIDs, it.ID.String()), append(p.plainQty, strconv.Itoa(n))
		}
		if code != "" {
			p.warnings = append(p.warnings, warn(code, it, n))
		}
	}
	return p
}

// mergeGroups splits lines (oldest first) into what moves as one: each
// plain line alone, each bundle selection's lines together, in the order of
// their oldest line.
func mergeGroups(lines []models.CartItem) [][]models.CartItem {
	var groups [][]models.CartItem
	at := map[uuid.UUID]int{}
	for _, it := range lines {
		if it.BundleSelection == nil {
			groups = append(groups, []models.CartItem{it})
			continue
		}
		i, ok := at[*it.BundleSelection]
		if !ok {
			i = len(groups)
			at[*it.BundleSelection] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], it)
	}
	return groups
}
