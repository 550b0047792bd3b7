// Package fulfillment ships an order's units in one or more fulfilments with
// the carrier's tracking, delivers and cancels them, and keeps the order's
// status and fulfillment_status in step (docs/DECISIONS.md "Fulfilment"). It
// owns the order's shipping and delivering moves, PATCH .../status to
// shipped or delivered included (ShipRest, DeliverAll); package order owns
// the others.
//
// Every change locks the order row (SELECT ... FOR UPDATE) for the length of
// its transaction, as every other order change does, so two fulfilments of
// one order are serialized and a unit can never ship twice. A change is a
// unit of work (package uow) that this package's service opens and passes
// to what contributes to it: stock's moves, the order's history and
// statuses (order.StageMoves), the events, the email, the audit entry and
// the invoice or credit note (Invoices, given to New).
//
// A fulfilment whose units a live return holds cannot be cancelled
// (returned.go, Returns), and units that will not ship are cancelled, by an
// administrator or when a refund makes the order refunded in full
// (unfulfilled.go; docs/DECISIONS.md "Returned units and unshipped units").
package fulfillment
