package database

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gorm.io/gorm"
)

// Batch collects data-changing statements (INSERT, UPDATE or DELETE, with ?
// placeholders; what they return is not read) and sends them as one
// statement of writable common table expressions: one round trip to Postgres instead of one a
// statement. On two cores a round trip costs about as much CPU, in the api
// and in Postgres, as a small insert itself (docs/BENCHMARKS.md).
//
// What one statement means for its parts: they share one snapshot and do not
// see each other's rows, they run in no defined order, and no two may change
// the same row. Triggers, foreign-key checks included, run when the whole
// statement has, so a child row may name a parent inserted in the same batch.
// A failing part fails them all, with that part's error.
type Batch struct {
	parts []string
	args  []any
}

// Add appends one statement and its arguments.
func (b *Batch) Add(sql string, args ...any) {
	b.parts = append(b.parts, sql)
	b.args = append(b.args, args...)
}

// Insert adds one insert of len(rows) rows into table's columns: each row
// holds a value per column. No rows adds nothing.
func (b *Batch) Insert(table string, columns []string, rows ...[]any) {
	if len(rows) == 0 {
		return
	}
	tuple := "(" + strings.Repeat("?, ", len(columns)-1) + "?)"
	var sql strings.Builder
	sql.WriteString("INSERT INTO " + table + " (" + strings.Join(columns, ", ") + ") VALUES ")
	args := make([]any, 0, len(rows)*len(columns))
	for i, r := range rows {
		if i > 0 {
			sql.WriteString(", ")
		}
		sql.WriteString(tuple)
		args = append(args, r...)
	}
	b.Add(sql.String(), args...)
}

// Create adds the insert GORM would send for value, a model pointer whose
// primary key is set (GORM's dry run builds it: every column, serializers
// applied; the batch reads no RETURNING back).
func (b *Batch) Create(tx *gorm.DB, value any) error {
	stmt := tx.Session(&gorm.Session{DryRun: true}).Create(value).Statement
	if stmt.Error != nil {
		return fmt.Errorf("database.batch: %w", stmt.Error)
	}
	// GORM numbers its placeholders; the batch numbers them all at Exec.
	b.Add(numbered.ReplaceAllString(stmt.SQL.String(), "?"), stmt.Vars...)
	return nil
}

// numbered matches the $n placeholders of a statement GORM built.
var numbered = regexp.MustCompile(`\$[0-9]+`)

// Len is the number of statements added.
func (b *Batch) Len() int { return len(b.parts) }

// Exec sends the statements in tx; none is a no-op.
func (b *Batch) Exec(tx *gorm.DB) error {
	switch len(b.parts) {
	case 0:
		return nil
	case 1:
		return tx.Exec(b.parts[0], b.args...).Error
	}
	return tx.Exec(b.SQL(), b.args...).Error
}

// SQL is the one statement Exec sends for two or more parts: every part but
// the last as a named expression, the last as the main statement.
func (b *Batch) SQL() string {
	var sb strings.Builder
	last := len(b.parts) - 1
	for i, p := range b.parts[:last] {
		if i == 0 {
			sb.WriteString("WITH ")
		} else {
			sb.WriteString(", ")
		}
		sb.WriteString("w" + strconv.Itoa(i) + " AS (" + p + ")")
	}
	sb.WriteString(" " + b.parts[last])
	return sb.String()
}
