// Package systemapi serves the back office's operations endpoints: health,
// cache clearing, reconcile, job status and the queue dashboard (interface
// 4.5, API-DECISIONS 10).
package systemapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/mount"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/system"
	"github.com/gocommerce/shop/tasks"
)

// Audit actions.
const (
	actionCacheClear  = "system.cache_clear"
	actionReconcile   = "system.reconcile"
	actionQueueManage = "queue.manage"
)

type handlers struct {
	system *system.Service
	queue  tasks.Enqueuer
}

// Register mounts the system routes and the queue dashboard on m.
func Register(m *mount.Mount) {
	d := m.Deps
	h := &handlers{system: system.New(d.DB, d.Redis, d.Inspector, d.Config, d.Started), queue: d.Queue}
	a := m.Admin
	a.Get("/health", rbac.SystemRead, h.health, adminroute.RateBucket(adminroute.Unlimited))
	a.Post("/system/cache/clear", rbac.CacheClear, h.clearCache, adminroute.Audit(actionCacheClear, ""))
	a.Post("/system/database/reconcile", rbac.Reconcile, h.reconcile, adminroute.Audit(actionReconcile, ""))
	a.Get("/jobs/:jobId", rbac.SystemRead, h.job)
	mountDashboard(m)
}
