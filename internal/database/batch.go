package database

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Batch collects data-changing statements (INSERT, UPDATE or DELETE, with ?
// placeholders; what they return is not read) and sends them as one
// statement of writable common table expressions: one round trip to Postgres
// instead of one a statement (docs/BENCHMARKS.md says what a round trip
// costs).
//
// The rules of one statement, which every part staged in it follows:
//   - The parts share one snapshot: none sees another's rows, and a read made
//     in the transaction before Exec sees none of them.
//   - They run in no defined order.
//   - No two may change the same row. Update, Updates and Create name the
//     row they write, and a second part naming a row already staged is
//     refused: Exec then fails with ErrRowTwice, running nothing. Add and
//     Insert name no row; their parts are the caller's to keep apart.
//   - Triggers, foreign-key checks included, run when the whole statement
//     has, so a child row may name a parent inserted in the same batch.
//   - A failing part fails them all, with that part's error.
type Batch struct {
	parts []string
	args  []any
	// rows are the rows Update and Create staged, by table and key, with
	// the statement that staged each (for the error that refuses a second).
	rows map[string]string
	err  error
}

// ErrRowTwice is the error of a batch in which two parts change one row.
var ErrRowTwice = errors.New("database.batch: two statements of one batch change the same row")

// Add appends one statement and its arguments.
func (b *Batch) Add(sql string, args ...any) {
	b.parts = append(b.parts, sql)
	b.args = append(b.args, args...)
}

// Update appends sql, an update of the one row of table whose key is key,
// and its arguments. A second update (or create) of that row is refused
// (see Batch).
func (b *Batch) Update(table string, key any, sql string, args ...any) {
	b.claim(table, key, sql)
	b.Add(sql, args...)
}

// claim records that sql changes the row key of table, or records the
// refusal when another part already does.
func (b *Batch) claim(table string, key any, sql string) {
	row := table + "/" + fmt.Sprint(key)
	if first, taken := b.rows[row]; taken {
		if b.err == nil {
			b.err = fmt.Errorf("%w: %s, by %q and by %q", ErrRowTwice, row, first, sql)
		}
		return
	}
	if b.rows == nil {
		b.rows = map[string]string{}
	}
	b.rows[row] = sql
}

// Insert adds one insert of len(rows) rows into table's columns: each row
// holds a value per column. No rows adds nothing. It is for several rows at
// once, or rows of no model; one model's row is staged with Create.
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

// Create adds the insert GORM would send for value, a model pointer (or a
// pointer to a slice of models): GORM's dry run builds it, every column,
// serializers applied, its associations left out (the batch inserts that
// row alone and reads no RETURNING back, so a key the table defaults is not
// known to the caller). A single model whose key is set counts as changing
// its row (see Batch).
func (b *Batch) Create(tx *gorm.DB, value any) error {
	stmt := tx.Session(&gorm.Session{DryRun: true}).Omit(clause.Associations).Create(value).Statement
	return b.addBuilt(stmt, value, "create")
}

// Updates adds the update GORM would send to set columns (column names,
// constants of the caller's code) of the row of model, a model pointer
// whose primary key is set; it counts as changing that row (see Batch).
func (b *Batch) Updates(tx *gorm.DB, model any, columns map[string]any) error {
	stmt := tx.Session(&gorm.Session{DryRun: true}).Model(model).Updates(columns).Statement
	return b.addBuilt(stmt, model, "updates")
}

// addBuilt adds stmt, which GORM built for value in a dry run, claiming
// value's row when value is one model with its key set.
func (b *Batch) addBuilt(stmt *gorm.Statement, value any, op string) error {
	if stmt.Error != nil {
		return fmt.Errorf("database.batch: %s: %w", op, stmt.Error)
	}
	sql := numbered.ReplaceAllString(stmt.SQL.String(), "?")
	if key, ok := primaryKey(stmt, value); ok {
		b.claim(stmt.Table, key, sql)
	}
	// GORM numbers its placeholders; the batch numbers them all at Exec.
	b.Add(sql, stmt.Vars...)
	return nil
}

// primaryKey is the key of the row of value, one model, as text: its
// primary key fields' values joined; ok is false for a slice or a key
// left to the table's default.
func primaryKey(stmt *gorm.Statement, value any) (string, bool) {
	v := reflect.Indirect(reflect.ValueOf(value))
	if stmt.Schema == nil || v.Kind() != reflect.Struct || len(stmt.Schema.PrimaryFields) == 0 {
		return "", false
	}
	parts := make([]string, len(stmt.Schema.PrimaryFields))
	for i, f := range stmt.Schema.PrimaryFields {
		key, zero := f.ValueOf(stmt.Context, v)
		if zero {
			return "", false
		}
		parts[i] = fmt.Sprint(key)
	}
	return strings.Join(parts, "/"), true
}

// numbered matches the $n placeholders of a statement GORM built.
var numbered = regexp.MustCompile(`\$[0-9]+`)

// Len is the number of statements added.
func (b *Batch) Len() int { return len(b.parts) }

// Exec sends the statements in tx; none is a no-op. A batch that refused a
// part (ErrRowTwice) sends nothing and returns that error.
func (b *Batch) Exec(tx *gorm.DB) error {
	if b.err != nil {
		return b.err
	}
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
