package draft

import (
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/google/uuid"
)

// LinkMessenger stages a customer message (package messaging).
type LinkMessenger interface {
	Stage(u *uow.Unit, r messaging.Request) (int, error)
}

// WithMessages sends a draft's payment link by SMS or WhatsApp too, as the
// message settings' paymentLink event says.
func (s *Service) WithMessages(m LinkMessenger) *Service {
	s.messages = m
	return s
}

// stageLinkMessage stages the payment-link message of link url for amount
// to the draft's customer, once per link.
func (s *Service) stageLinkMessage(u *uow.Unit, linkID, url, name, phone string, customerID uuid.UUID, amount money.Amount) error {
	if s.messages == nil {
		return nil
	}
	_, err := s.messages.Stage(u, messaging.Request{Event: messaging.EventPaymentLink, Subject: linkID, CustomerID: &customerID,
		Phone: phone, Variables: []string{name, messaging.Rupees(amount), url}})
	return err
}
