// Package paging is how every list asks for one page of its rows: a
// Window (the API pages by number, docs/DECISIONS.md "HTTP conventions";
// api/httpx.ParsePage turns `page` and `limit` into a Window). Services take
// a Window after their filter, so no list confuses limit with offset.
package paging

import "gorm.io/gorm"

// Window is the rows of a list a caller asks for: Limit rows after skipping
// Offset, in the list's order.
type Window struct {
	Limit  int
	Offset int
}

// Newest reads window w of the rows query selects, newest first
// (created_at DESC, id DESC: the order of every back-office list), into
// rows, and returns how many rows query selects in all. query builds the
// filtered statement afresh on each call (a GORM statement is spent once
// run); load, when given, adds what the rows carry (preloads) to the read
// of the page only.
func Newest[T any](query func() *gorm.DB, w Window, rows *[]T, load ...func(*gorm.DB) *gorm.DB) (int64, error) {
	q := query()
	for _, l := range load {
		q = l(q)
	}
	if err := q.Order("created_at DESC, id DESC").Limit(w.Limit).Offset(w.Offset).Find(rows).Error; err != nil {
		return 0, err
	}
	return Total(len(*rows), w, func() (int64, error) {
		var n int64
		return n, query().Count(&n).Error
	})
}

// Total is the total of a list whose window w held got rows: told by the
// page itself when it is short, or empty from the start; else count().
func Total(got int, w Window, count func() (int64, error)) (int64, error) {
	if got > 0 && got < w.Limit {
		return int64(w.Offset + got), nil
	}
	if got == 0 && w.Offset == 0 {
		return 0, nil
	}
	return count()
}
