package systemapi

import (
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/system"
	"github.com/gofiber/fiber/v2"
)

type externalView struct {
	Gateway string `json:"gateway"`
	Email   string `json:"email"`
}

type servicesView struct {
	Database string       `json:"database"`
	Redis    string       `json:"redis"`
	External externalView `json:"external"`
	// TaxDocuments: docs/DECISIONS.md "Tax documents".
	TaxDocuments string `json:"taxDocuments"`
	// EInvoicesUnreported and EwayBillsFailed: docs/DECISIONS.md
	// "E-invoices and e-way bills".
	EInvoicesUnreported int64 `json:"eInvoicesUnreported"`
	EwayBillsFailed     int64 `json:"ewayBillsFailed"`
}

type poolView struct {
	Open  int `json:"open"`
	InUse int `json:"inUse"`
}

type metricsView struct {
	Uptime string `json:"uptime"`
	Memory string `json:"memory"`
	// ActiveConnections is the HTTP connections open to this API process.
	ActiveConnections int      `json:"activeConnections"`
	DatabasePool      poolView `json:"databasePool"`
}

type healthResponse struct {
	Status    string       `json:"status"`
	Timestamp string       `json:"timestamp"`
	Services  servicesView `json:"services"`
	Metrics   metricsView  `json:"metrics"`
}

// health answers GET /admin/health. It is 200 whatever the states: the body
// says what is wrong.
func (h *handlers) health(c *fiber.Ctx) error {
	r := h.system.Health(c.UserContext())
	return c.JSON(healthResponse{
		Status:    r.Status,
		Timestamp: httpx.Timestamp(r.Timestamp),
		Services: servicesView{Database: r.Database, Redis: r.Redis,
			External: externalView{Gateway: r.Gateway, Email: r.Email}, TaxDocuments: r.TaxDocuments,
			EInvoicesUnreported: r.EInvoicesUnreported, EwayBillsFailed: r.EwayBillsFailed},
		Metrics: metricsView{
			Uptime:            r.Uptime.Round(time.Second).String(),
			Memory:            system.FormatBytes(r.HeapBytes) + " heap, " + system.FormatBytes(r.SysBytes) + " from the OS",
			ActiveConnections: int(c.App().Server().GetOpenConnectionsCount()),
			DatabasePool:      poolView{Open: r.DBOpen, InUse: r.DBInUse},
		},
	})
}
