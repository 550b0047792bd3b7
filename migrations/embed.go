// Package migrations holds the database schema as goose SQL migrations,
// embedded in the binary so `shop migrate up` needs no files on disk.
//
// Conventions: money columns are bigint minor units (paise); rates are
// integer hundredths of a percent (1800 = 18 %); timestamps are timestamptz.
package migrations

import "embed"

// FS holds the SQL files, applied in file-name order.
//
//go:embed *.sql
var FS embed.FS
