package database

import (
	"context"
	"errors"
	"io"
	"net"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"
)

// Postgres SQLSTATE codes the services react to.
const (
	UniqueViolation     = "23505"
	ForeignKeyViolation = "23503"
	CheckViolation      = "23514"
	SerializationFail   = "40001"
	DeadlockDetected    = "40P01"
)

// PgCode returns the SQLSTATE of err, or "" when err is not a Postgres error.
func PgCode(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return ""
}

// Constraint returns the name of the violated constraint, if any.
func Constraint(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.ConstraintName
	}
	return ""
}

// IsUnique reports whether err is a unique-constraint violation.
func IsUnique(err error) bool {
	return errors.Is(err, gorm.ErrDuplicatedKey) || PgCode(err) == UniqueViolation
}

// IsNotFound reports whether err is GORM's record-not-found.
func IsNotFound(err error) bool { return errors.Is(err, gorm.ErrRecordNotFound) }

// IsUnavailable reports whether err means the database could not be reached
// or did not answer in time. A connection the server closed under a query
// (a restart, a failover) ends the read with an unexpected EOF, and the
// driver answers later use of that connection with ErrConnClosed.
func IsUnavailable(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, pgconn.ErrConnClosed) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return true
	}
	var connErr *pgconn.ConnectError
	if errors.As(err, &connErr) {
		return true
	}
	switch PgCode(err) {
	case "57P01", "57P02", "57P03", "08000", "08003", "08006", "08001", "08004":
		return true
	}
	return false
}

// Translate maps a driver error to a client error: not found → NOT_FOUND for
// resource, unique violation → CONFLICT, unreachable → SERVICE_UNAVAILABLE.
// An *apperr.Error passes through; anything else is returned unchanged (500).
func Translate(err error, resource string) error {
	if err == nil {
		return nil
	}
	if _, ok := apperr.As(err); ok {
		return err
	}
	switch {
	case IsNotFound(err):
		return apperr.Missing(resource)
	case IsUnique(err):
		return apperr.Wrap(apperr.Conflict, resource+" already exists", err)
	case IsUnavailable(err):
		return apperr.Wrap(apperr.Unavailable, "database unavailable", err)
	}
	return err
}
