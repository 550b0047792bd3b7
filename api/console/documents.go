package console

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/systemapi"
	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/region"
	"github.com/gocommerce/shop/internal/shipment"
	"github.com/gocommerce/shop/internal/uqc"
	"github.com/gocommerce/shop/models"
)

// permissionsDoc is /admin/permissions.json, read from the admin route
// registry so that the console shows exactly the controls the server would
// allow: every permission a route or body field declares with the least
// role holding it, and the permission of every protected route. Routes are
// keyed "METHOD /path" relative to the admin API root with each path
// parameter written {} ("PATCH /orders/{}/status"); a route the server does
// not have is absent, which is how the console tells which optional
// features (shipping, fulfilments, returns) this server offers.
type permissionsDoc struct {
	Roles       []rbac.Role          `json:"roles"`
	Permissions map[string]rbac.Role `json:"permissions"`
	Routes      map[string]string    `json:"routes"`
}

var pathParam = regexp.MustCompile(`:[A-Za-z0-9_]+`)

func newPermissions(routes []adminroute.Route, prefix string) []byte {
	doc := permissionsDoc{Roles: rbac.Roles, Permissions: map[string]rbac.Role{}, Routes: map[string]string{}}
	add := func(p rbac.Permission) {
		if p.Name != "" {
			doc.Permissions[p.Name] = p.MinRole
		}
	}
	for _, rt := range routes {
		if rt.Public {
			continue
		}
		add(rt.Permission)
		for _, f := range rt.Fields {
			add(f.Permission)
		}
		path := pathParam.ReplaceAllString(strings.TrimPrefix(rt.Path, prefix), "{}")
		doc.Routes[rt.Method+" "+path] = rt.Permission.Name
	}
	return mustJSON(doc)
}

// settingsDoc is /admin/settings.json: the store's settings and the domain's
// value sets that the console's forms offer.
type settingsDoc struct {
	AppName  string `json:"appName"`
	Currency string `json:"currency"`
	// QueueDashboard is the asynqmon page (super_admin).
	QueueDashboard  string              `json:"queueDashboard"`
	EventTypes      []string            `json:"eventTypes"`
	ProductStatuses []string            `json:"productStatuses"`
	OrderStatuses   []string            `json:"orderStatuses"`
	OrderMoves      map[string][]string `json:"orderMoves"`
	// States are the states and union territories shipping zones may name.
	States []string `json:"states"`
	// GSTRates are the rates a product or a rate change may carry
	// (catalog.GSTRates), and Units the GST unit quantity codes a product
	// may be sold in: the console offers them as selects.
	GSTRates []money.Rate `json:"gstRates"`
	Units    []uqc.Unit   `json:"units"`
	// ShipmentStatuses are a courier shipment's statuses, the shipments
	// list's filter (GET /shipments?status=).
	ShipmentStatuses []string `json:"shipmentStatuses"`
}

func newSettings(cfg *config.Config) []byte {
	moves := map[string][]string{}
	for _, from := range models.OrderStatuses {
		moves[from] = []string{}
		for _, to := range models.OrderStatuses {
			if order.Allowed(from, to) {
				moves[from] = append(moves[from], to)
			}
		}
	}
	return mustJSON(settingsDoc{
		AppName: cfg.AppName, Currency: cfg.StoreCurrency,
		QueueDashboard: systemapi.DashboardPath + "/", EventTypes: outbox.EventTypes,
		ProductStatuses: catalog.ProductStatuses, OrderStatuses: models.OrderStatuses, OrderMoves: moves,
		States: region.States, GSTRates: catalog.GSTRates, Units: uqc.Units(), ShipmentStatuses: shipment.Statuses,
	})
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("console: " + err.Error())
	}
	return b
}
