package system

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"runtime"
	"time"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/gateway"
)

// Service states in a health report.
const (
	StateOK            = "ok"
	StateError         = "error"
	StateConfigured    = "configured"
	StateNotConfigured = "not_configured"
)

// checkTimeout bounds each probe of a health report.
const checkTimeout = time.Second

// Health is the health report of the service as seen from this process.
type Health struct {
	// Status is ok, degraded (an external service failed) or error
	// (Postgres or Redis failed).
	Status    string
	Timestamp time.Time
	Database  string
	Redis     string
	// Gateway: ok for the offline simulator, configured when gateway keys
	// are set (the gateway is not called per health check).
	Gateway string
	// Email: not_configured without SMTP_URL (emails are logged), else ok
	// or error from a TCP connection to the mail server.
	Email  string
	Uptime time.Duration
	// HeapBytes and SysBytes are the Go heap in use and the memory taken
	// from the operating system.
	HeapBytes, SysBytes uint64
	// DBOpen and DBInUse describe the database pool.
	DBOpen, DBInUse int

	// TaxDocuments: ok once the store's tax identity is set, else
	// not_configured (no invoice or credit note is issued).
	TaxDocuments string
	// EInvoicesUnreported counts the documents not registered by the IRP a
	// day after their issue; EwayBillsFailed the failed e-way bills
	// (gst.go). Both -1 when the database cannot say.
	EInvoicesUnreported, EwayBillsFailed int64
}

// Health probes Postgres, Redis and the mail server, each within a second,
// and reads the process's uptime and memory.
func (s *Service) Health(ctx context.Context) Health {
	h := Health{Timestamp: time.Now().UTC(), Database: StateOK, Redis: StateOK, Uptime: time.Since(s.started)}
	dbCtx, cancel := context.WithTimeout(ctx, checkTimeout)
	if err := database.Ping(dbCtx, s.db); err != nil {
		h.Database = StateError
	}
	cancel()
	rCtx, cancel := context.WithTimeout(ctx, checkTimeout)
	if err := s.redis.Ping(rCtx).Err(); err != nil {
		h.Redis = StateError
	}
	cancel()
	if h.Database == StateOK {
		tCtx, cancel := context.WithTimeout(ctx, checkTimeout)
		h.TaxDocuments = s.taxDocumentsState(tCtx)
		h.EInvoicesUnreported, h.EwayBillsFailed = s.gstPortalCounts(tCtx)
		cancel()
	} else {
		h.TaxDocuments = StateError
		h.EInvoicesUnreported, h.EwayBillsFailed = -1, -1
	}
	h.Gateway = s.gatewayState()
	h.Email = s.emailState(ctx)

	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	h.HeapBytes, h.SysBytes = m.HeapAlloc, m.Sys
	if sqlDB, err := s.db.DB(); err == nil {
		st := sqlDB.Stats()
		h.DBOpen, h.DBInUse = st.OpenConnections, st.InUse
	}
	switch {
	case h.Database != StateOK || h.Redis != StateOK:
		h.Status = StateError
	case h.Email == StateError || h.Gateway == StateError:
		h.Status = "degraded"
	default:
		h.Status = StateOK
	}
	return h
}

func (s *Service) gatewayState() string {
	switch s.cfg.PaymentProvider {
	case gateway.Simulator:
		return StateOK
	case gateway.Razorpay:
		if s.cfg.RazorpayKeyID != "" && s.cfg.RazorpayKeySecret != "" {
			return StateConfigured
		}
	}
	return StateNotConfigured
}

func (s *Service) emailState(ctx context.Context) string {
	if s.cfg.SMTPURL == "" {
		return StateNotConfigured
	}
	u, err := url.Parse(s.cfg.SMTPURL)
	if err != nil || u.Hostname() == "" {
		return StateError
	}
	port := u.Port()
	if port == "" {
		port = "25"
		if u.Scheme == "smtps" {
			port = "465"
		}
	}
	d := net.Dialer{Timeout: checkTimeout}
	conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort(u.Hostname(), port))
	if err != nil {
		return StateError
	}
	conn.Close()
	return StateOK
}

// FormatBytes renders a byte count as mebibytes, e.g. "12.3 MiB".
func FormatBytes(n uint64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
