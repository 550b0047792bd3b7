package models

import (
	"time"

	"github.com/google/uuid"
)

// Admin roles, from least to most privileged.
const (
	RoleViewer     = "viewer"
	RoleStaff      = "staff"
	RoleAdmin      = "admin"
	RoleSuperAdmin = "super_admin"
)

// Admin is a back-office account.
type Admin struct {
	ID           uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	Email        string
	Name         string
	PasswordHash string
	Role         string
	IsActive     bool
	LastLoginAt  *time.Time
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// AdminSession is one signed-in device of an admin. Only the Argon2id hash of
// the refresh token's secret part is stored.
type AdminSession struct {
	ID               uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	AdminID          uuid.UUID `gorm:"type:uuid"`
	RefreshTokenHash string
	DeviceID         string
	UserAgent        *string
	IPAddress        *string
	CreatedAt        time.Time
	ExpiresAt        time.Time
	RefreshExpiresAt time.Time
	LastUsedAt       time.Time
}

// AdminTwoFactor is an admin's TOTP configuration.
type AdminTwoFactor struct {
	AdminID      uuid.UUID `gorm:"type:uuid;primaryKey"`
	Secret       string
	BackupCodes  StringArray `gorm:"type:text[]"`
	Enabled      bool
	LastUsedStep int64
	// FailedCodes counts wrong codes of the login step since FailuresSince;
	// at the limit the second factor is refused until LockedUntil.
	FailedCodes   int
	FailuresSince *time.Time
	LockedUntil   *time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// TableName pins the singular table name.
func (AdminTwoFactor) TableName() string { return "admin_two_factor" }

// AdminEmailTwoFactorLockout is the kind of the email telling an admin that
// too many wrong second factors locked the two-factor login step.
const AdminEmailTwoFactorLockout = "two_factor_lockout"

// AdminEmail is a security email to an admin, written with the event it
// reports and sent by the worker; SentAt is set once it went out.
type AdminEmail struct {
	ID        uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	AdminID   uuid.UUID `gorm:"type:uuid"`
	Kind      string
	Ref       string
	Details   JSON
	CreatedAt time.Time
	SentAt    *time.Time
}

// AdminAuditLog is one append-only audit entry.
type AdminAuditLog struct {
	ID        uuid.UUID  `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	AdminID   *uuid.UUID `gorm:"type:uuid"`
	Action    string
	EntityID  *string
	Metadata  JSON
	IPAddress string
	UserAgent string
	CreatedAt time.Time
}

// AdminLoginChallenge is a two-step login waiting for its second factor.
// Only the SHA-256 of the twoFactorToken handed to the client is stored.
type AdminLoginChallenge struct {
	ID             uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	TokenHash      string
	AdminID        uuid.UUID `gorm:"type:uuid"`
	DeviceID       string
	FailedAttempts int
	CreatedAt      time.Time
	ExpiresAt      time.Time
}
