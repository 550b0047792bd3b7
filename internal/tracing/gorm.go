package tracing

import (
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"gorm.io/gorm"
)

// gormSpanKey keeps a statement's span between GORM's before and after
// callbacks (a per-statement instance setting).
const gormSpanKey = "tracing:span"

// InstrumentDB makes every statement run through db a client span. The
// statement is recorded as written, with its placeholders and never with
// the values bound to them (customers' addresses, tokens, amounts).
//
// It is written on GORM's callbacks rather than with
// gorm.io/plugin/opentelemetry, which links the MySQL and ClickHouse
// drivers into the binary (docs/DECISIONS.md, "Tracing").
func (p *Provider) InstrumentDB(db *gorm.DB) error {
	if !p.Enabled() {
		return nil
	}
	tracer := p.sdk.Tracer("github.com/gocommerce/shop/internal/tracing")
	before := func(op string) func(*gorm.DB) {
		return func(tx *gorm.DB) {
			ctx := tx.Statement.Context
			if ctx == nil || !trace.SpanContextFromContext(ctx).IsValid() {
				return // outside any request or task: no orphan span
			}
			_, span := tracer.Start(ctx, "gorm."+op, trace.WithSpanKind(trace.SpanKindClient),
				trace.WithAttributes(attribute.String("db.system.name", "postgresql")))
			tx.InstanceSet(gormSpanKey, span)
		}
	}
	after := func(tx *gorm.DB) {
		v, ok := tx.InstanceGet(gormSpanKey)
		if !ok {
			return
		}
		span := v.(trace.Span)
		defer span.End()
		if table := tx.Statement.Table; table != "" {
			span.SetAttributes(attribute.String("db.collection.name", table))
		}
		// SQL holds placeholders ($1 ...); the values stay in Statement.Vars.
		span.SetAttributes(attribute.String("db.query.text", tx.Statement.SQL.String()),
			attribute.Int64("db.response.returned_rows", tx.Statement.RowsAffected))
		if err := tx.Error; err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		}
	}
	cb := db.Callback()
	regs := []struct {
		op            string
		before, after func(string, func(*gorm.DB)) error
	}{
		{"create", func(n string, f func(*gorm.DB)) error { return cb.Create().Before("*").Register(n, f) },
			func(n string, f func(*gorm.DB)) error { return cb.Create().After("*").Register(n, f) }},
		{"query", func(n string, f func(*gorm.DB)) error { return cb.Query().Before("*").Register(n, f) },
			func(n string, f func(*gorm.DB)) error { return cb.Query().After("*").Register(n, f) }},
		{"update", func(n string, f func(*gorm.DB)) error { return cb.Update().Before("*").Register(n, f) },
			func(n string, f func(*gorm.DB)) error { return cb.Update().After("*").Register(n, f) }},
		{"delete", func(n string, f func(*gorm.DB)) error { return cb.Delete().Before("*").Register(n, f) },
			func(n string, f func(*gorm.DB)) error { return cb.Delete().After("*").Register(n, f) }},
		{"row", func(n string, f func(*gorm.DB)) error { return cb.Row().Before("*").Register(n, f) },
			func(n string, f func(*gorm.DB)) error { return cb.Row().After("*").Register(n, f) }},
		{"raw", func(n string, f func(*gorm.DB)) error { return cb.Raw().Before("*").Register(n, f) },
			func(n string, f func(*gorm.DB)) error { return cb.Raw().After("*").Register(n, f) }},
	}
	for _, r := range regs {
		if err := r.before("tracing:before_"+r.op, before(r.op)); err != nil {
			return err
		}
		if err := r.after("tracing:after_"+r.op, after); err != nil {
			return err
		}
	}
	return nil
}
