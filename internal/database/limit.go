package database

import (
	"strconv"

	"gorm.io/gorm/clause"
)

// literalLimit builds GORM's LIMIT clause with its numbers in the SQL text
// (LIMIT 21 OFFSET 40) where GORM writes parameters (LIMIT $3 OFFSET $4).
//
// Postgres cannot cost a plan whose row limit is a parameter: it assumes a
// tenth of the rows, so the generic plan of a prepared statement with
// LIMIT $n always looks worse than one planned for the actual number, and
// every execution is planned again. For the admin order list that planning
// took longer than the query itself (measured in
// docs/BENCHMARKS.md, "Figures behind code comments"). With the numbers
// in the text, pgx's per-connection statement cache keeps one statement per
// distinct limit and offset, and Postgres reuses its plan.
//
// Only integers reach this text (clause.Limit holds ints), so nothing a
// client sends is spliced into SQL.
func literalLimit(c clause.Clause, b clause.Builder) {
	l, ok := c.Expression.(clause.Limit)
	if !ok {
		c.Build(b)
		return
	}
	hasLimit := l.Limit != nil && *l.Limit >= 0
	if hasLimit {
		b.WriteString("LIMIT ")
		b.WriteString(strconv.Itoa(*l.Limit))
	}
	if l.Offset > 0 {
		if hasLimit {
			b.WriteByte(' ')
		}
		b.WriteString("OFFSET ")
		b.WriteString(strconv.Itoa(l.Offset))
	}
}
