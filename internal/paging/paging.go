// Package paging is how every list asks for one page of its rows: a
// Window (the API pages by number, docs/DECISIONS.md "HTTP conventions";
// api/httpx.ParsePage turns `page` and `limit` into a Window). Services take
// a Window after their filter, so no list confuses limit with offset.
package paging

// Window is the rows of a list a caller asks for: Limit rows after skipping
// Offset, in the list's order.
type Window struct {
	Limit  int
	Offset int
}
