package fulfillment

import (
	"encoding/json"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/region"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/google/uuid"
)

// origin is a stock location a shipment may leave from, with its units of
// the order's variants.
type origin struct {
	ID               uuid.UUID         `json:"id"`
	Name             string            `json:"name"`
	Address          json.RawMessage   `json:"address"`
	GSTIN            *string           `json:"gstin"`
	InvoicePrefix    *string           `json:"invoicePrefix"`
	CreditNotePrefix *string           `json:"creditNotePrefix"`
	IsActive         bool              `json:"isActive"`
	IsDefault        bool              `json:"isDefault"`
	Sells            bool              `json:"sells"`
	PickupCode       *string           `json:"pickupCode"`
	OnHand           map[uuid.UUID]int `json:"levels"`
}

func (o *origin) state() string {
	var a struct{ State string }
	_ = json.Unmarshal(o.Address, &a)
	return a.State
}

// originsSQL is every location in priority order (ties by age) with its
// units of order ?'s variants, key-share locked (stock.LockPlace says
// why), as one JSON array: a column of the lines' read, so a fulfilment
// reads lines and locations in one round trip. Uncorrelated, it runs once.
const originsSQL = `(SELECT coalesce(jsonb_agg(to_jsonb(o) ORDER BY o.priority, o.created_at, o.id), '[]') FROM (
	SELECT l.id, l.name, l.address, l.gstin, l.invoice_prefix AS "invoicePrefix", l.credit_note_prefix AS "creditNotePrefix",
		l.is_active AS "isActive", l.is_default AS "isDefault", l.is_active AND l.fulfils_online AS sells, l.pickup_code AS "pickupCode", l.priority, l.created_at,
		coalesce((SELECT jsonb_object_agg(sl.variant_id, sl.on_hand) FROM stock_levels sl
			WHERE sl.location_id = l.id AND sl.variant_id IN (SELECT variant_id FROM order_items WHERE order_id = ?)), '{}') AS levels
	FROM locations l FOR KEY SHARE OF l) o)`

// originsOf decodes the locations the lines' read returned.
func originsOf(ls []line) ([]origin, error) {
	var os []origin
	if len(ls) == 0 {
		return os, nil
	}
	if err := json.Unmarshal(ls[0].Origins, &os); err != nil {
		return nil, fmt.Errorf("fulfillment.origins: %w", err)
	}
	return os, nil
}

// short lists the units of units that o lacks.
func (o *origin) short(units []stock.Item) []map[string]any {
	var out []map[string]any
	for _, it := range units {
		if have := o.OnHand[it.VariantID]; have < it.Quantity {
			out = append(out, map[string]any{"variantId": it.VariantID, "quantity": it.Quantity, "onHand": have})
		}
	}
	return out
}

// chooseOrigin is the location units ship from: want when named (it must
// be active and hold them all), else the active location with the lowest
// priority number that holds them all. A location in another state than
// the default location's must have its own GSTIN. Errors: VALIDATION_ERROR
// naming locationId (unknown), CONFLICT (inactive; short, details naming
// the short units; no GSTIN for its state).
func chooseOrigin(os []origin, want uuid.UUID, units []stock.Item) (*origin, error) {
	var chosen, home *origin
	for i := range os {
		if os[i].IsDefault {
			home = &os[i]
		}
	}
	if want != uuid.Nil {
		for i := range os {
			if os[i].ID == want {
				chosen = &os[i]
			}
		}
		switch {
		case chosen == nil:
			return nil, apperr.Invalid("locationId", "is not a known location")
		case !chosen.IsActive:
			return nil, apperr.Conflictf("location %s is not active", chosen.Name).WithDetails(map[string]any{"locationId": want})
		}
		if s := chosen.short(units); s != nil {
			return nil, apperr.Wrap(apperr.Conflict, "location "+chosen.Name+" does not hold every unit of this shipment", stock.ErrShortage).
				WithDetails(map[string]any{"locationId": want, "short": s})
		}
	} else {
		for i := range os {
			if os[i].IsActive && os[i].short(units) == nil {
				chosen = &os[i]
				break
			}
		}
		if chosen == nil {
			return nil, apperr.Wrap(apperr.Conflict, "no active location holds every unit of this shipment", stock.ErrShortage).
				WithDetails(map[string]any{"short": mostHeld(os, units)})
		}
	}
	if chosen.GSTIN == nil && home != nil && !sameState(chosen.state(), home.state()) {
		return nil, apperr.Conflictf("location %s is in %s, another state than the store's, and has no GSTIN; set its gstin first",
			chosen.Name, chosen.state()).WithDetails(map[string]any{"locationId": chosen.ID, "field": "gstin"})
	}
	return chosen, nil
}

// mostHeld names, for each unit short at every active location, the most
// one of them holds.
func mostHeld(os []origin, units []stock.Item) []map[string]any {
	var out []map[string]any
	for _, it := range units {
		best := 0
		for i := range os {
			if os[i].IsActive && os[i].OnHand[it.VariantID] > best {
				best = os[i].OnHand[it.VariantID]
			}
		}
		out = append(out, map[string]any{"variantId": it.VariantID, "quantity": it.Quantity, "mostAtOneLocation": best})
	}
	return out
}

func sameState(a, b string) bool {
	ca, okA := region.GSTCode(a)
	cb, okB := region.GSTCode(b)
	if okA && okB {
		return ca == cb
	}
	return a == b
}

// issuer is the GST registration and series o's invoices are issued
// under: its own GSTIN and address when it has one (else the store's), its
// own prefix when set (else the store's).
func (o *origin) issuer() invoice.Issuer {
	var is invoice.Issuer
	if o.GSTIN != nil {
		is.GSTIN = *o.GSTIN
		is.Address = &invoice.Address{}
		_ = json.Unmarshal(o.Address, is.Address)
	}
	if o.InvoicePrefix != nil {
		is.InvoicePrefix = *o.InvoicePrefix
	}
	return is
}

// place is o as the stock moves see it.
func (o *origin) place() stock.Place { return stock.Place{ID: o.ID, Sells: o.Sells} }
