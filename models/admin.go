package models

import (
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"
	"gorm.io/datatypes"
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
	BackupCodes  pq.StringArray `gorm:"type:text[]"`
	Enabled      bool
	LastUsedStep int64
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// TableName pins the singular table name.
func (AdminTwoFactor) TableName() string { return "admin_two_factor" }

// AdminAuditLog is one append-only audit entry.
type AdminAuditLog struct {
	ID        uuid.UUID  `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	AdminID   *uuid.UUID `gorm:"type:uuid"`
	Action    string
	EntityID  *string
	Metadata  datatypes.JSON
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
