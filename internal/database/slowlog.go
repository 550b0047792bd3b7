package database

import (
	"context"
	"log/slog"
	"time"

	"gorm.io/driver/postgres"
	"gorm.io/gorm/logger"
)

// slowThreshold is the duration past which a statement is logged.
const slowThreshold = 200 * time.Millisecond

// slowLog is GORM's logger: it reports statements slower than
// slowThreshold and nothing else. Failed statements are returned to their
// callers, which turn an expected one (a duplicate SKU) into a 409 and log
// an unexpected one once, as a 500.
//
// GORM's own slog logger renders every statement's SQL before deciding
// whether to log it; this one renders only what it logs, and (with sqlOnly)
// never with bound values (password hashes, token digests).
type slowLog struct{ log *slog.Logger }

func (l slowLog) LogMode(logger.LogLevel) logger.Interface      { return l }
func (l slowLog) Info(context.Context, string, ...interface{})  {}
func (l slowLog) Warn(context.Context, string, ...interface{})  {}
func (l slowLog) Error(context.Context, string, ...interface{}) {}

func (l slowLog) Trace(ctx context.Context, begin time.Time, fc func() (string, int64), _ error) {
	elapsed := time.Since(begin)
	if elapsed <= slowThreshold {
		return
	}
	sql, rows := fc()
	l.log.WarnContext(ctx, "slow SQL", "duration_ms", elapsed.Milliseconds(), "rows", rows, "sql", sql)
}

// sqlOnly is the Postgres dialect with Explain answering the statement as
// written, placeholders and all. GORM calls Explain to render a statement
// for its logger, and for every Raw(...).Scan whether anything is logged or
// not; the dialect's own version inlines the bound values (secrets among
// them) with regular expressions, a cost on every query for text nobody
// reads.
type sqlOnly struct{ *postgres.Dialector }

func (sqlOnly) Explain(sql string, _ ...interface{}) string { return sql }
