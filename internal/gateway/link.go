package gateway

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
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

// LinkProvider makes payment links and cancels them.
type LinkProvider interface {
	// CreateLink makes a link. Errors wrap ErrUnavailable.
	CreateLink(ctx context.Context, r LinkRequest) (Link, error)
	// CancelLink cancels link id so that it takes no more payments; a link
	// cancelled already is answered nil. Errors: ErrLinkPaid (the link was
	// paid: the payment's event comes, or came), ErrRefused (the gateway
	// will not cancel it, e.g. it expired: it takes no payment either),
	// ErrUnavailable (outcome unknown: ask again).
	CancelLink(ctx context.Context, id string) error
}

// ErrLinkPaid wraps ErrRefused: a link that cannot be cancelled because it
// was paid.
var ErrLinkPaid = fmt.Errorf("%w: the payment link is paid", ErrRefused)

// CancelLink cancels a simulator link. A link whose payment was simulated
// (SimulatePaidLink) is ErrLinkPaid, as Razorpay answers.
func (*SimulatorProvider) CancelLink(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return unavailable("cancel_link", err)
	}
	simLinks.mu.Lock()
	defer simLinks.mu.Unlock()
	if simLinks.paid[id] {
		return fmt.Errorf("payment.cancel_link: %w", ErrLinkPaid)
	}
	if len(simLinks.cancelled) >= simMaxRefunds {
		clear(simLinks.cancelled)
	}
	simLinks.cancelled[id] = true
	return nil
}

// SimulatePaidLink marks simulator link id paid: cancelling it is then
// refused.
func SimulatePaidLink(id string) {
	simLinks.mu.Lock()
	defer simLinks.mu.Unlock()
	if len(simLinks.paid) >= simMaxRefunds {
		clear(simLinks.paid)
	}
	simLinks.paid[id] = true
}

// SimulatorCancelled reports whether this process's simulator cancelled
// link id.
func SimulatorCancelled(id string) bool {
	simLinks.mu.Lock()
	defer simLinks.mu.Unlock()
	return simLinks.cancelled[id]
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
	mu        sync.Mutex
	byRef     map[string]string
	cancelled map[string]bool
	paid      map[string]bool
}{byRef: map[string]string{}, cancelled: map[string]bool{}, paid: map[string]bool{}}

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

// CancelLink cancels a Razorpay payment link: POST
// /v1/payment_links/{id}/cancel. Razorpay answers a link that is paid with
// a 400 whose description says so (ErrLinkPaid), and one cancelled or
// expired already with a 400 too: cancelled is nil, anything else
// ErrRefused. 5xx, 408, 409, 429 and no answer are ErrUnavailable.
func (p *RazorpayProvider) CancelLink(ctx context.Context, id string) error {
	var out struct {
		Status string `json:"status"`
	}
	err := p.do(ctx, http.MethodPost, "/v1/payment_links/"+url.PathEscape(id)+"/cancel", nil, map[string]any{}, &out)
	var se *statusError
	if errors.As(err, &se) && se.definite() {
		body := strings.ToLower(string(se.body))
		switch {
		case strings.Contains(body, "paid"):
			return fmt.Errorf("payment.cancel_link: %w: %v", ErrLinkPaid, err)
		case strings.Contains(body, "cancelled"):
			return nil
		}
		return refused("cancel_link", err)
	}
	if err != nil {
		return unavailable("cancel_link", err)
	}
	return nil
}
