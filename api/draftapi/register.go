// Package draftapi serves draft orders: orders staff builds for a customer
// and completes with a payment link (README "API overview: back office",
// docs/DECISIONS.md "Draft orders and payment links").
package draftapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/draft"
	"github.com/gocommerce/shop/internal/rbac"
)

// Audit actions.
const (
	actionCreate   = "draft_order.create"
	actionUpdate   = "draft_order.update"
	actionDelete   = "draft_order.delete"
	actionComplete = "draft_order.complete"
)

// Path is where draft orders live under the admin prefix.
const Path = "/draft-orders"

// Services are what the draft order routes call.
type Services struct {
	Drafts *draft.Service
}

type handlers struct {
	drafts *draft.Service
}

// Register mounts the draft order routes on a. Staff may build drafts
// (orders.write); a hand-set line price also needs pricing.write, checked
// by the handler because it sits inside items.
func Register(a *adminroute.Router, svc Services) {
	h := &handlers{drafts: svc.Drafts}
	a.Get(Path, rbac.OrdersRead, h.list)
	a.Post(Path, rbac.OrdersWrite, h.create, adminroute.Audit(actionCreate, ""))
	a.Get(Path+"/:draftId", rbac.OrdersRead, h.get)
	a.Patch(Path+"/:draftId", rbac.OrdersWrite, h.update, adminroute.Audit(actionUpdate, "draftId"))
	a.Delete(Path+"/:draftId", rbac.OrdersWrite, h.remove, adminroute.Audit(actionDelete, "draftId"))
	a.Post(Path+"/:draftId/complete", rbac.OrdersWrite, h.complete, adminroute.Audit(actionComplete, "draftId"))
}
