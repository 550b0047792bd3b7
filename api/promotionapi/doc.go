// Package promotionapi holds the end-to-end tests of promotions
// (docs/DECISIONS.md "Promotions"): buy X get Y,
// spend tiers, free shipping and how they combine, followed from the cart
// through the order and its invoices to a full return's refund and credit
// notes. The endpoints themselves are the discounts' (api/catalogapi), the
// cart's and checkout's (api/storeapi).
package promotionapi
