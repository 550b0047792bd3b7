package systemapi

import (
	"sync"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/hibiken/asynq"
	"github.com/hibiken/asynqmon"
)

// DashboardPath is where the queue dashboard (asynqmon) is served.
const DashboardPath = "/api/v1/admin/queues"

// mountDashboard serves asynqmon under /api/v1/admin/queues/ to super
// admins only (cookie or bearer, through the admin guard like every admin
// route). Its page and reads are GETs; its POST and DELETE calls (pause a
// queue, retry or delete tasks) are audited as queue.manage. Every answer
// carries the console's security headers (dashboard_page.go).
func mountDashboard(root *fiber.App, a *adminroute.Router, queues asynq.RedisConnOpt) {
	var (
		once    sync.Once
		handler fiber.Handler
		mon     *asynqmon.HTTPHandler
	)
	// Built on first use: asynqmon opens its own Redis connections.
	serve := func(c *fiber.Ctx) error {
		once.Do(func() {
			mon = asynqmon.New(asynqmon.Options{RootPath: DashboardPath, RedisConnOpt: queues})
			handler = adaptor.HTTPHandler(mon)
		})
		return secureDashboard(c, handler)
	}
	root.Hooks().OnShutdown(func() error {
		once.Do(func() {}) // a dashboard never built stays unbuilt
		if mon != nil {
			return mon.Close()
		}
		return nil
	})
	// The dashboard polls every few seconds; reads are not rate limited.
	a.Get("/queues/*", rbac.QueueDashboard, serve, adminroute.RateBucket(adminroute.Unlimited))
	a.Post("/queues/*", rbac.QueueDashboard, serve, adminroute.Audit(actionQueueManage, ""))
	a.Delete("/queues/*", rbac.QueueDashboard, serve, adminroute.Audit(actionQueueManage, ""))
}
