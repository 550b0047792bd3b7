package gateway

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/gocommerce/shop/internal/money"
)

// LinkRequest asks for a payment link: a page at the gateway where the
// customer pays Amount (docs/DECISIONS.md "Draft orders and payment links").
type LinkRequest struct {
	Amount   money.Amount
	Currency string
	// Reference is ours (the link's checkout session id). The gateway keeps
	// one link per reference, so asking twice returns the first link.
	Reference   string
	Description string
	Name        string
	Email       string
	Phone       string
	// ExpiresAt is when the link stops taking payments.
	ExpiresAt time.Time
}

// Link is a payment link the gateway made. Its ID is what the
// payment_link.paid event names (payload.payment_link.entity.id).
type Link struct {
	ID  string
	URL string
}

// LinkProvider makes payment links. Errors wrap ErrUnavailable.
type LinkProvider interface {
	CreateLink(ctx context.Context, r LinkRequest) (Link, error)
}

// CreateLink returns a new plink_sim_... link, or the one made before for
// r.Reference. Its URL is not a page anyone can pay at: `shop gateway
// simulate payment_link.paid --link-id ID` stands for the payment.
func (*SimulatorProvider) CreateLink(ctx context.Context, r LinkRequest) (Link, error) {
	if err := ctx.Err(); err != nil {
		return Link{}, unavailable("create_link", err)
	}
	simLinks.mu.Lock()
	defer simLinks.mu.Unlock()
	if id, ok := simLinks.byRef[r.Reference]; ok && r.Reference != "" {
		return Link{ID: id, URL: simLinkURL(id)}, nil
	}
	if len(simLinks.byRef) >= simMaxRefunds {
		clear(simLinks.byRef)
	}
	id := "plink_sim_" + randomHex(7)
	if r.Reference != "" {
		simLinks.byRef[r.Reference] = id
	}
	return Link{ID: id, URL: simLinkURL(id)}, nil
}

func simLinkURL(id string) string { return "https://payments.simulator.invalid/pl/" + id }

var simLinks = struct {
	mu    sync.Mutex
	byRef map[string]string
}{byRef: map[string]string{}}

// CreateLink creates a Razorpay payment link: POST /v1/payment_links, with
// reference_id r.Reference, expire_by and the customer; Razorpay sends no
// notification (the shop emails the link itself). Razorpay refuses a second
// link with a reference_id already used, so a refusal is answered with the
// link found by GET /v1/payment_links?reference_id=, which makes a retry
// after a lost answer return the first link.
func (p *RazorpayProvider) CreateLink(ctx context.Context, r LinkRequest) (Link, error) {
	body := map[string]any{
		"amount": int64(r.Amount), "currency": r.Currency, "accept_partial": false,
		"reference_id": truncate(r.Reference, 40), "description": truncate(r.Description, 2048),
		"expire_by": r.ExpiresAt.Unix(),
		"customer":  map[string]string{"name": r.Name, "email": r.Email, "contact": r.Phone},
		"notify":    map[string]bool{"sms": false, "email": false}, "reminder_enable": false,
	}
	var out razorpayLink
	err := p.do(ctx, http.MethodPost, "/v1/payment_links", nil, body, &out)
	var se *statusError
	if errors.As(err, &se) && se.definite() && r.Reference != "" {
		var list struct {
			PaymentLinks []razorpayLink `json:"payment_links"`
		}
		if ferr := p.do(ctx, http.MethodGet, "/v1/payment_links?reference_id="+url.QueryEscape(truncate(r.Reference, 40)), nil, nil, &list); ferr == nil {
			for _, l := range list.PaymentLinks {
				if l.ID != "" {
					return Link{ID: l.ID, URL: l.ShortURL}, nil
				}
			}
		}
		return Link{}, unavailable("create_link", err)
	}
	if err != nil {
		return Link{}, unavailable("create_link", err)
	}
	if out.ID == "" {
		return Link{}, unavailable("create_link", fmt.Errorf("response carries no link id"))
	}
	return Link{ID: out.ID, URL: out.ShortURL}, nil
}

// razorpayLink is Razorpay's payment link entity, as much as is read of it.
type razorpayLink struct {
	ID       string `json:"id"`
	ShortURL string `json:"short_url"`
}
