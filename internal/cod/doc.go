// Package cod owns cash on delivery as the store runs it (docs/DECISIONS.md
// "Cash on delivery and offline payments"): the payment settings (limits,
// fee and its GST, zones, the cap on a customer's open unpaid COD orders),
// the rule that decides whether a cart may pay on delivery (Decide: the
// same answer for GET /cart/payment-options and for the checkout, which
// takes it with the buyer's locks held), and courier remittance files
// applied row by row (remittance.go). The COD checkout itself is package
// checkout's; recording one payment is package order's.
package cod
