package messaging

import (
	"log/slog"
	"strings"
	"time"

	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Service plans, sends and tracks the customers' messages.
type Service struct {
	db        *gorm.DB
	queue     tasks.Enqueuer
	log       *slog.Logger
	providers map[string]Provider
	// codLink is the confirmation page's address for a COD order (package
	// cod makes its token).
	codLink func(orderID uuid.UUID) string
	// afterSend runs after the provider accepted a message and before the
	// row is marked sent: tests end the send there, as a worker killed at
	// that moment would.
	afterSend func(id uuid.UUID) error
	now       func() time.Time
}

// New returns the service sending through providers (one per channel at
// most; a channel without one sends nothing).
func New(db *gorm.DB, queue tasks.Enqueuer, log *slog.Logger, providers ...Provider) *Service {
	s := &Service{db: db, queue: queue, log: log, providers: map[string]Provider{},
		now: func() time.Time { return time.Now().UTC() }}
	for _, p := range providers {
		if p != nil {
			s.providers[p.Channel()] = p
		}
	}
	return s
}

// WithCODLink sets the address of a COD order's confirmation page.
func (s *Service) WithCODLink(link func(orderID uuid.UUID) string) *Service {
	s.codLink = link
	return s
}

// CrashAfterSend makes every send end with err once the provider accepted
// the message and before the row is marked sent (a worker killed between
// the two); nil restores normal sends. For tests.
func (s *Service) CrashAfterSend(hook func(id uuid.UUID) error) { s.afterSend = hook }

// Enabled reports whether channel has a provider.
func (s *Service) Enabled(channel string) bool { return s.providers[channel] != nil }

// Phone is a phone number in the providers' international form (digits
// only, country code first: 919812345678), or "" when p is not a number a
// message can go to. A 10-digit number is an Indian mobile.
func Phone(p string) string {
	var b strings.Builder
	for _, r := range p {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	d := b.String()
	switch {
	case len(d) == 10:
		return "91" + d
	case len(d) == 11 && d[0] == '0':
		return "91" + d[1:]
	case len(d) >= 11 && len(d) <= 15 && d[0] != '0':
		return d
	}
	return ""
}
