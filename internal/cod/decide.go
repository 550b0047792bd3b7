package cod

import (
	"fmt"
	"github.com/gocommerce/shop/internal/courier"
	"hash/fnv"
	"sort"
	"strings"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/shipping"
	"gorm.io/gorm"
)

// Why COD is unavailable: the reason of GET /cart/payment-options and of a
// refused COD checkout.
const (
	ReasonDisabled      = "disabled"
	ReasonAboveLimit    = "above_limit"
	ReasonZone          = "zone"
	ReasonTooManyUnpaid = "too_many_unpaid"
	// ReasonPincode: COD is not offered at the shipping pincode: the
	// merchant blocks it there, or the courier cannot collect cash there.
	ReasonPincode = "pincode"
)

// reasonText says each reason to a shopper.
var reasonText = map[string]string{
	ReasonDisabled:      "cash on delivery is not offered by this store",
	ReasonAboveLimit:    "the order is above the cash on delivery limit",
	ReasonZone:          "cash on delivery is not offered for this shipping address",
	ReasonTooManyUnpaid: "too many unpaid cash on delivery orders for this email or phone",
	ReasonPincode:       "cash on delivery is not available at this pincode",
}

// Explain is the sentence of a reason.
func Explain(reason string) string { return reasonText[reason] }

// Quote is what the decision is about: the shipping state, the order's
// total before the COD fee (cart after discounts, with shipping), and the
// buyer's email and phone ("" when not known yet).
type Quote struct {
	State string
	Total money.Amount
	Email string
	Phone string
	// Courier is the courier's answer for the shipping pincode; nil when
	// no courier was asked.
	Courier *courier.Serviceability
	// Pincode is the shipping pincode ("" when not known yet).
	Pincode string
}

// Decision is whether COD is available for a quote, with the fee it adds
// (and the GST contained in it) and, when unavailable, the reason.
type Decision struct {
	Available bool
	Reason    string
	Fee       money.Amount
	FeeTax    money.Amount
	FeeRate   money.Rate
}

// Decide decides whether quote q may pay on delivery, in tx. The limit is
// compared with q.Total plus the fee. With lockBuyer (the checkout) the
// buyer's email and phone are locked for the rest of tx first
// (transaction-scoped advisory locks, in one order), so concurrent COD
// checkouts of one buyer count each other's orders and the cap holds; the
// quote of GET /cart/payment-options takes no lock.
func Decide(tx *gorm.DB, q Quote, lockBuyer bool) (Decision, error) {
	set, err := load(tx)
	if err != nil {
		return Decision{}, fmt.Errorf("cod.decide: %w", err)
	}
	c := set.COD
	d := Decision{Fee: c.Fee, FeeRate: c.FeeGSTRate, FeeTax: feeTax(c.Fee, c.FeeGSTRate)}
	if !c.Enabled {
		d.Reason = ReasonDisabled
		return d, nil
	}
	if len(c.ZoneIDs) > 0 {
		zone, err := shipping.ZoneOf(tx, q.State)
		if err != nil {
			return Decision{}, err
		}
		if zone == nil || !containsZone(c, *zone) {
			d.Reason = ReasonZone
			return d, nil
		}
	}
	if blockedPincode(c, q.Pincode) || !q.Courier.CODAllowed() {
		d.Reason = ReasonPincode
		return d, nil
	}
	if c.MaxOrderAmount > 0 && q.Total+c.Fee > c.MaxOrderAmount {
		d.Reason = ReasonAboveLimit
		return d, nil
	}
	email, phone := strings.ToLower(strings.TrimSpace(q.Email)), strings.TrimSpace(q.Phone)
	if email != "" || phone != "" {
		if lockBuyer {
			if err := lockBuyerKeys(tx, email, phone); err != nil {
				return Decision{}, err
			}
		}
		open, err := openUnpaid(tx, email, phone)
		if err != nil {
			return Decision{}, err
		}
		if open >= int64(c.MaxOpenPerCustomer) {
			d.Reason = ReasonTooManyUnpaid
			return d, nil
		}
	}
	d.Available = true
	return d, nil
}

func containsZone(c CODSettings, zone [16]byte) bool {
	for _, z := range c.ZoneIDs {
		if z == zone {
			return true
		}
	}
	return false
}

// lockBuyerKeys takes the advisory locks of a buyer's email and phone, in
// ascending key order so two checkouts sharing both never deadlock.
func lockBuyerKeys(tx *gorm.DB, email, phone string) error {
	var keys []int64
	for _, k := range []string{"email:" + email, "phone:" + phone} {
		if strings.HasSuffix(k, ":") {
			continue
		}
		h := fnv.New64a()
		h.Write([]byte("cod-cap:" + k))
		keys = append(keys, int64(h.Sum64()))
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	for _, k := range keys {
		if err := tx.Exec(`SELECT pg_advisory_xact_lock(?)`, k).Error; err != nil {
			return fmt.Errorf("cod.lock_buyer: %w", err)
		}
	}
	return nil
}

// openUnpaid counts the COD orders of the email or phone neither paid nor
// cancelled. An empty email or phone (a phone order's buyer has no email)
// matches nothing: "" is nobody's. Each half is looked up in its own partial index
// (orders_open_cod_email_due_idx, orders_open_cod_phone_idx, whose predicates
// the branches repeat word for word, as literals: a placeholder would keep a
// generic plan from proving the index's predicate) and the union counts an order matching
// both once: one condition with OR read every open COD order of the shop
// through the email index, a cost that grew with the unpaid orders.
func openUnpaid(tx *gorm.DB, email, phone string) (int64, error) {
	var n int64
	err := tx.Raw(`SELECT count(*) FROM (
		SELECT id FROM orders WHERE payment_method = 'cod' AND payment_status = 'pending' AND status <> 'cancelled'
			AND email = ? AND ? <> ''
		UNION
		SELECT id FROM orders WHERE payment_method = 'cod' AND payment_status = 'pending' AND status <> 'cancelled'
			AND phone <> '' AND ? <> '' AND phone = ?) open`,
		email, email, phone, phone).Scan(&n).Error
	if err != nil {
		return 0, fmt.Errorf("cod.open_unpaid: %w", err)
	}
	return n, nil
}

// feeTax is the GST contained in the COD fee: two equal halves within a
// state, as every line's (money.IncludedGST).
func feeTax(fee money.Amount, r money.Rate) money.Amount {
	tax, _ := money.IncludedGST(fee, r, 0)
	return tax
}
