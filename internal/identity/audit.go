package identity

import (
	"context"

	"github.com/gocommerce/shop/internal/audit"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Audit actions written by the authentication flows themselves (public
// routes, which the admin router's guard does not audit).
const (
	ActionLogin            = "auth.login"
	ActionLoginFailed      = "auth.login_failed"
	ActionTwoFactorPending = "auth.2fa_challenge"
	ActionTwoFactorFailed  = "auth.2fa_failed"
	ActionTwoFactorCheck   = "auth.2fa_check"
	ActionRefresh          = "auth.refresh"
	ActionRefreshReuse     = "auth.refresh_reuse"
)

// record writes an audit entry on db (a transaction when the entry must
// commit or roll back with the change it describes). Metadata is scrubbed by
// audit.Record; callers never put credentials in it anyway.
func record(ctx context.Context, db *gorm.DB, adminID uuid.UUID, action, entityID string, meta map[string]any, client ClientInfo) error {
	var id *uuid.UUID
	if adminID != uuid.Nil {
		id = &adminID
	}
	client = client.normalized()
	return audit.Record(ctx, db, audit.Entry{
		AdminID: id, Action: action, EntityID: entityID, Metadata: meta,
		IP: client.IP, UserAgent: client.UserAgent,
	})
}
