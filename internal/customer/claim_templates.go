package customer

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/gocommerce/shop/models"
)

// ClaimPath is the storefront page a claim link opens; it posts the email,
// token and chosen password to POST /customers/claim.
const ClaimPath = "/account/claim"

// ClaimLink is the link carried by a claim email.
func (s *Claims) ClaimLink(email, token string) string {
	q := url.Values{"email": {email}, "token": {token}}
	return strings.TrimRight(s.set.PublicURL, "/") + ClaimPath + "?" + q.Encode()
}

func (s *Claims) claimBody(c *models.Customer, token string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Hello %s,\n\n", nameOr(c.Name))
	fmt.Fprintf(&b, "You checked out as a guest. Set a password to see your orders and check out faster next time:\n\n")
	fmt.Fprintf(&b, "%s\n\n", s.ClaimLink(c.Email, token))
	fmt.Fprintf(&b, "Or send this token with your email and a new password to POST /customers/claim:\n%s\n\n", token)
	fmt.Fprintf(&b, "The link works once and expires in %s. If you did not order from %s, ignore this email.\n",
		s.set.TokenTTL, s.set.AppName)
	return b.String()
}

func (s *Claims) confirmationBody(o *models.Order) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Hello %s,\n\nThank you for your order %s.\n\n", nameOr(o.Name), o.OrderNumber)
	for _, it := range o.Items {
		fmt.Fprintf(&b, "  %s (%s) × %d  %s %s\n", it.Title, it.SKU, it.Quantity, it.LineTotal, o.Currency)
	}
	fmt.Fprintf(&b, "\nSubtotal:  %s %s\n", o.Subtotal, o.Currency)
	if o.DiscountTotal > 0 {
		fmt.Fprintf(&b, "Discount: -%s %s\n", o.DiscountTotal, o.Currency)
	}
	fmt.Fprintf(&b, "Shipping:  %s %s\nTotal:     %s %s (GST included: %s)\n", o.ShippingCost, o.Currency, o.Total, o.Currency, o.TaxTotal)
	fmt.Fprintf(&b, "\nWe will write again when it ships.\n\n%s\n", s.set.AppName)
	return b.String()
}

func nameOr(name string) string {
	if strings.TrimSpace(name) == "" {
		return "there"
	}
	return name
}
