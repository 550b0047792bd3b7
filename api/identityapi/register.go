// Package identityapi serves administrator identity: login with optional
// TOTP second step, refresh rotation, logout and sessions, 2FA setup, the
// admin users endpoints and the audit log (README "Administrators",
// docs/DECISIONS.md "Administrator identity").
package identityapi

import (
	"time"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/identity"
	"github.com/gocommerce/shop/internal/ratelimit"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gofiber/fiber/v2"
)

// Audit actions of the protected routes; the guard writes them.
const (
	actionLogout          = "auth.logout"
	actionLogoutAll       = "auth.logout_all"
	actionSessionRevoke   = "auth.session_revoke"
	actionTOTPGenerate    = "auth.2fa_generate_secret"
	actionTOTPEnable      = "auth.2fa_enable"
	actionTOTPDisable     = "auth.2fa_disable"
	actionAdminUserCreate = "admin_user.create"
	actionAdminUserUpdate = "admin_user.update"
)

// Services are what the identity routes call.
type Services struct {
	Auth     *identity.Service
	Users    *identity.Accounts
	AuditLog *audit.Log
	Limiter  *ratelimit.Limiter
}

// Settings are the identity routes' limits and cookie policy.
type Settings struct {
	// CodeLimit bounds password and code guesses per CodeWindow: per client
	// IP for login and the 2FA login step, per admin for the signed-in code
	// checks (ADMIN_LOGIN_RATE_*).
	CodeLimit  int
	CodeWindow time.Duration
	// CookieSecure marks the refresh cookie Secure (COOKIE_SECURE).
	CookieSecure bool
	// StoreTimezone is STORE_TIMEZONE, answered by /auth/me so the console
	// shows dates in the store's zone.
	StoreTimezone string
}

// handlers holds what the endpoints need.
type handlers struct {
	auth    *identity.Service
	users   *identity.Accounts
	audit   *audit.Log
	limiter *ratelimit.Limiter
	set     Settings
}

// Register mounts the identity routes on a.
func Register(a *adminroute.Router, svc Services, set Settings) {
	h := &handlers{
		auth:    svc.Auth,
		users:   svc.Users,
		audit:   svc.AuditLog,
		limiter: svc.Limiter,
		set:     set,
	}
	// Public: these authenticate by themselves and write their own entries.
	a.Public(fiber.MethodPost, "/auth/login", h.login, adminroute.Audit(identity.ActionLogin, ""))
	a.Public(fiber.MethodPost, "/auth/2fa/verify", h.verifyTwoFactor, adminroute.Audit(identity.ActionLogin, ""))
	a.Public(fiber.MethodPost, "/auth/refresh", h.refresh, adminroute.Audit(identity.ActionRefresh, ""))

	a.Delete("/auth/logout", rbac.Self, h.logout, adminroute.Audit(actionLogout, ""))
	a.Delete("/auth/logout/all", rbac.Self, h.logoutAll, adminroute.Audit(actionLogoutAll, ""))
	a.Get("/auth/sessions", rbac.Self, h.listSessions)
	a.Delete("/auth/sessions/:sessionId", rbac.Self, h.revokeSession, adminroute.Audit(actionSessionRevoke, "sessionId"))
	a.Get("/auth/me", rbac.Self, h.me)
	a.Get("/auth/2fa/status", rbac.Self, h.twoFactorStatus)
	a.Post("/auth/2fa/generate-secret", rbac.Self, h.generateSecret, adminroute.Audit(actionTOTPGenerate, ""))
	a.Post("/auth/2fa/enable", rbac.Self, h.enableTwoFactor, adminroute.Audit(actionTOTPEnable, ""))
	a.Post("/auth/2fa/disable", rbac.Self, h.disableTwoFactor, adminroute.Audit(actionTOTPDisable, ""))

	a.Post("/users", rbac.AdminUsersWrite, h.createUser, adminroute.Audit(actionAdminUserCreate, ""))
	a.Get("/users", rbac.AdminUsersRead, h.listUsers)
	a.Get("/users/:id", rbac.AdminUsersRead, h.getUser)
	a.Patch("/users/:id", rbac.AdminUsersWrite, h.updateUser, adminroute.Audit(actionAdminUserUpdate, "id"))

	a.Get("/audit-logs", rbac.AuditRead, h.listAuditLogs)
	a.Get("/audit-logs/entities", rbac.AuditRead, h.auditEntities)
}
