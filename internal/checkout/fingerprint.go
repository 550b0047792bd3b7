package checkout

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/gocommerce/shop/internal/cart"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// fpLine is what identifies a cart line for the fingerprint.
type fpLine struct {
	VariantID       uuid.UUID  `json:"v"`
	Quantity        int        `json:"q"`
	BundleSelection *uuid.UUID `json:"b,omitempty"`
}

// fingerprint hashes the cart's lines and code with the checkout details:
// equal fingerprints mean "the same checkout again". Prices are left out on
// purpose: the repeat of a pending checkout keeps the price it quoted.
func fingerprint(lines []fpLine, code *string, in Input) string {
	sort.Slice(lines, func(i, j int) bool {
		a, b := lines[i], lines[j]
		if a.VariantID != b.VariantID {
			return a.VariantID.String() < b.VariantID.String()
		}
		return fmt.Sprint(a.BundleSelection) < fmt.Sprint(b.BundleSelection)
	})
	doc := struct {
		Lines    []fpLine   `json:"lines"`
		Code     *string    `json:"code"`
		Customer *uuid.UUID `json:"customer,omitempty"`
		Ship     uuid.UUID  `json:"ship"`
		Bill     uuid.UUID  `json:"bill"`
		Guest    any        `json:"guest,omitempty"`
		Shipping int64      `json:"shipping"`
		Method   *uuid.UUID `json:"method,omitempty"`
		Buyer    any        `json:"buyer,omitempty"`
	}{Lines: lines, Code: code, Ship: in.ShippingAddressID, Bill: in.BillingAddressID, Method: in.ShippingMethodID}
	if in.ShippingCost != nil {
		doc.Shipping = int64(*in.ShippingCost)
	}
	if in.Customer != nil {
		doc.Customer = &in.Customer.ID
	}
	if g := in.Guest; g != nil {
		doc.Guest = []any{g.Email, g.Name, g.Phone, g.Address, g.Password != ""}
	}
	if in.Buyer.BuyerGSTIN != nil || in.Buyer.BuyerName != "" {
		doc.Buyer = in.Buyer
	}
	b, _ := json.Marshal(doc)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func fpLinesOf(lines []cart.Line) []fpLine {
	out := make([]fpLine, len(lines))
	for i, l := range lines {
		out[i] = fpLine{VariantID: l.VariantID, Quantity: l.Quantity, BundleSelection: l.BundleSelection}
	}
	return out
}

// currentLines reads a cart's lines for the fingerprint, cheaply.
func currentLines(tx *gorm.DB, cartID uuid.UUID) ([]fpLine, error) {
	var out []fpLine
	err := tx.Raw(`SELECT variant_id, quantity, bundle_selection FROM cart_items WHERE cart_id = ?`, cartID).Scan(&out).Error
	if err != nil {
		return nil, fmt.Errorf("checkout.fingerprint: %w", err)
	}
	return out, nil
}
