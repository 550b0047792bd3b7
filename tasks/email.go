package tasks

import (
	"time"

	"github.com/hibiken/asynq"
)

// Email task types.
const (
	// TypeOrderEmails sends an order's confirmation and, for a guest's order,
	// the account-claim email with a fresh claim token.
	TypeOrderEmails = "email:order"
	// TypeClaimEmail (re)sends a guest's account-claim email.
	TypeClaimEmail = "email:claim"
	// TypeAdminEmails sends the unsent security emails to administrators
	// (admin_emails), e.g. a second-factor lockout.
	TypeAdminEmails = "email:admin"
	// TypeDuplicatePaymentEmail tells a shopper that a payment for a cart
	// already paid was refunded.
	TypeDuplicatePaymentEmail = "email:duplicate_payment"
	// TypeFulfillmentEmails sends the unsent shipment emails with tracking
	// links (customer_emails rows written with their fulfilment).
	TypeFulfillmentEmails = "email:fulfillment"
	// TypeReturnEmails sends the unsent emails about returns (approved,
	// rejected, refunded).
	TypeReturnEmails = "email:returns"
	// TypeDraftEmails sends the unsent payment-link emails of draft orders
	// (customer_emails rows written with the link).
	TypeDraftEmails = "email:draft"
)

// NewDraftEmailsTask builds the payment-link emails run; its id is
// tick-based like the shipment emails run's.
func NewDraftEmailsTask(now time.Time) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeDraftEmails, nil), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID(TickID(TypeDraftEmails, now, time.Second)),
		asynq.MaxRetry(3),
		asynq.Timeout(time.Minute),
		asynq.Retention(10 * time.Second),
	}
}

// OrderEmailsPayload names the order.
type OrderEmailsPayload struct {
	OrderID string `json:"orderId"`
}

// NewOrderEmailsTask builds the order-emails task; one per order.
func NewOrderEmailsTask(orderID string) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeOrderEmails, mustJSON(OrderEmailsPayload{OrderID: orderID})), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID("email:order:" + orderID),
		asynq.MaxRetry(8),
		asynq.Timeout(30 * time.Second),
		asynq.Retention(24 * time.Hour),
	}
}

// ClaimEmailPayload names the guest customer.
type ClaimEmailPayload struct {
	CustomerID string `json:"customerId"`
}

// NewClaimEmailTask builds a claim re-send; repeated requests within a minute
// collapse into one email.
func NewClaimEmailTask(customerID string) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeClaimEmail, mustJSON(ClaimEmailPayload{CustomerID: customerID})), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.Unique(time.Minute),
		asynq.MaxRetry(8),
		asynq.Timeout(30 * time.Second),
	}
}

// NewAdminEmailsTask builds the admin emails run. Its id is tick-based so
// that the nudge after a lockout and the scheduler's sweep collapse into one
// run per second; the rows say what is unsent, so the task carries nothing.
func NewAdminEmailsTask(now time.Time) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeAdminEmails, nil), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID(TickID(TypeAdminEmails, now, time.Second)),
		asynq.MaxRetry(3),
		asynq.Timeout(time.Minute),
		asynq.Retention(10 * time.Second),
	}
}

// NewFulfillmentEmailsTask builds the shipment emails run; like the admin
// emails run its id is tick-based, so a burst of fulfilments and the
// scheduler's sweep collapse into one run per second.
func NewFulfillmentEmailsTask(now time.Time) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeFulfillmentEmails, nil), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID(TickID(TypeFulfillmentEmails, now, time.Second)),
		asynq.MaxRetry(3),
		asynq.Timeout(time.Minute),
		asynq.Retention(10 * time.Second),
	}
}

// DuplicatePaymentEmailPayload names the refunded checkout session.
type DuplicatePaymentEmailPayload struct {
	CheckoutSessionID string `json:"checkoutSessionId"`
}

// NewDuplicatePaymentEmailTask builds the refunded-duplicate email task; one
// per checkout session.
func NewDuplicatePaymentEmailTask(sessionID string) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeDuplicatePaymentEmail, mustJSON(DuplicatePaymentEmailPayload{CheckoutSessionID: sessionID})), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID("email:duplicate_payment:" + sessionID),
		asynq.MaxRetry(8),
		asynq.Timeout(30 * time.Second),
		asynq.Retention(24 * time.Hour),
	}
}

// NewReturnEmailsTask builds the run that sends the unsent return emails
// (customer_emails of the return kinds; the rows say what is unsent, so the
// task carries nothing). key names the email that asked for the run (kind
// and return id), so every email gets its own run however close together
// they come; the scheduler's sweep replaces it with a tick id.
func NewReturnEmailsTask(key string) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypeReturnEmails, nil), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID(TypeReturnEmails + ":" + key),
		asynq.MaxRetry(8),
		asynq.Timeout(time.Minute),
		asynq.Retention(time.Hour),
	}
}
