// Package systemapi serves the back office's operations endpoints: health,
// cache clearing, reconcile, job status and the queue dashboard (README
// "API overview: back office" and "Operations").
package systemapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/system"
	"github.com/gocommerce/shop/tasks"
	"github.com/gofiber/fiber/v2"
	"github.com/hibiken/asynq"
)

// Audit actions.
const (
	actionCacheClear  = "system.cache_clear"
	actionReconcile   = "system.reconcile"
	actionQueueManage = "queue.manage"
)

// Services are what the system routes call.
type Services struct {
	System *system.Service
	Queue  tasks.Enqueuer
	// QueueRedis is where the queue dashboard reads and manages the queues.
	QueueRedis asynq.RedisConnOpt
}

type handlers struct {
	system *system.Service
	queue  tasks.Enqueuer
}

// Register mounts the system routes and the queue dashboard on a; root's
// shutdown closes the dashboard.
func Register(root *fiber.App, a *adminroute.Router, svc Services) {
	h := &handlers{system: svc.System, queue: svc.Queue}
	a.Get("/health", rbac.SystemRead, h.health, adminroute.RateBucket(adminroute.Unlimited))
	a.Post("/system/cache/clear", rbac.CacheClear, h.clearCache, adminroute.Audit(actionCacheClear, ""))
	a.Post("/system/database/reconcile", rbac.Reconcile, h.reconcile, adminroute.Audit(actionReconcile, ""))
	a.Get("/jobs/:jobId", rbac.SystemRead, h.job)
	mountDashboard(root, a, svc.QueueRedis)
}
