package main

import (
	"context"
	"log"
	"strings"

	"github.com/gocommerce/shop/internal/order"
	"github.com/jackc/pgx/v5"
)

// vacuumDue does, when the server runs with autovacuum off, what autovacuum
// would have done by now: it vacuums (and analyzes) every table whose dead
// rows passed its autovacuum threshold, the table's own settings first
// (migration 00020 lowers those of orders and its counters) and the
// server's otherwise. Some machines this runs on disable autovacuum for the
// whole server; without this, a scenario measured after 4,000 fulfilments
// reads the dead index entries they left (a deep admin page fetched 532
// heap rows), which no production database with autovacuum on would keep.
// With autovacuum on it does nothing: the server's own daemon decides.
func (b *bench) vacuumDue(ctx context.Context) {
	var on string
	if err := b.db.WithContext(ctx).Raw("SHOW autovacuum").Scan(&on).Error; err != nil || on == "on" {
		return
	}
	var due []string
	err := b.db.WithContext(ctx).Raw(`
		SELECT s.relname FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
		CROSS JOIN LATERAL (SELECT
			coalesce((SELECT split_part(o, '=', 2)::float8 FROM unnest(c.reloptions) o WHERE o LIKE 'autovacuum_vacuum_threshold=%'),
				current_setting('autovacuum_vacuum_threshold')::float8) AS base,
			coalesce((SELECT split_part(o, '=', 2)::float8 FROM unnest(c.reloptions) o WHERE o LIKE 'autovacuum_vacuum_scale_factor=%'),
				current_setting('autovacuum_vacuum_scale_factor')::float8) AS scale) t
		WHERE s.n_dead_tup > t.base + t.scale * greatest(c.reltuples, 0)
		ORDER BY s.relname`).Scan(&due).Error
	if err != nil {
		log.Printf("bench: autovacuum not emulated: %v", err)
		return
	}
	for _, table := range due {
		if err := b.db.WithContext(ctx).Exec("VACUUM ANALYZE " + pgx.Identifier{table}.Sanitize()).Error; err != nil {
			log.Printf("bench: VACUUM %s: %v", table, err)
		}
	}
	if len(due) > 0 {
		log.Printf("bench: autovacuum is off on this server; vacuumed what it would have: %s", strings.Join(due, ", "))
		if !b.emulatedVacuum {
			b.emulatedVacuum = true
			b.notes = append(b.notes, "This server runs Postgres with `autovacuum = off`; before each scenario the benchmark vacuumed the tables autovacuum would have visited by then (dead rows past each table's own threshold, migration 00020), as a production server with autovacuum on does.")
		}
	}
}

// compactCounters does what the scheduler's order-counters entry does every
// minute (order.CompactCounters). The benchmark runs no scheduler, whose
// ticks would land inside measurements at random; without this the counter
// keys kept every shard row the checkouts and fulfilments added, which no
// production database keeps for more than a minute.
func (b *bench) compactCounters(ctx context.Context) {
	c, err := order.CompactCounters(ctx, b.db)
	if err != nil {
		log.Printf("bench: order counters not compacted: %v", err)
		return
	}
	if c.Folded+c.Emptied > 0 {
		log.Printf("bench: compacted the order counters as the scheduler would have: %d rows folded, %d empty rows deleted", c.Folded, c.Emptied)
		if !b.compacted {
			b.compacted = true
			b.notes = append(b.notes, "Before each scenario the benchmark compacted the order counters (`order.CompactCounters`), as the scheduler does every minute in production; it runs no scheduler process.")
		}
	}
}
