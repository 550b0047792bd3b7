package browse

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/gocommerce/shop/internal/media"
	"github.com/google/uuid"
)

// Page is one or more products ready for the wire. Its JSON (a list page's
// array, or a product page's object) is rendered once, with a placeholder
// where each product's and each variant's availability goes; serving it
// copies the bytes and writes current figures into the placeholders. That is
// what the catalog cache holds, so a hit costs one validation pass and a
// copy, not decoding and re-encoding every field.
type Page struct {
	// Total is the number of products matching a list query.
	Total int64
	ids   []uuid.UUID
	// counts[i] is the number of variants of product ids[i].
	counts []int
	body   []byte
	// slots are the offsets of the placeholders in body, in document order,
	// found once when the body is made or read, not on every request.
	slots []int
	// avail[i][j] is the units available of variant j of product i, in
	// catalog order; set when the page is built or overlaid.
	avail [][]int
}

// placeholder stands for `"available":N,"inStock":B` in a rendered body. It
// cannot occur inside a JSON string (its quotes would be escaped there), so
// searching for it finds exactly the slots, in document order.
const placeholder = `"available":-1,"inStock":false`

// productParts is a product rendered without availability, and its
// variants' figures.
type productParts struct {
	head     []byte
	variants [][]byte
	avail    []int
}

// render splits p into its JSON without availability and its figures.
func render(p Product) (productParts, error) {
	var info any = p.ProductInfo
	switch {
	case p.listed:
		info = struct {
			ProductInfo
			Image *media.PublicImage `json:"image"`
		}{p.ProductInfo, p.Image}
	case p.Images != nil:
		info = struct {
			ProductInfo
			Images []media.PublicImage `json:"images"`
		}{p.ProductInfo, p.Images}
	}
	head, err := json.Marshal(info)
	if err != nil {
		return productParts{}, err
	}
	out := productParts{head: head, variants: make([][]byte, len(p.Variants)), avail: make([]int, len(p.Variants))}
	for i, v := range p.Variants {
		if out.variants[i], err = json.Marshal(v.VariantInfo); err != nil {
			return productParts{}, err
		}
		out.avail[i] = v.Available
	}
	return out, nil
}

// appendProduct writes one product with placeholders.
func appendProduct(buf []byte, p productParts) []byte {
	buf = append(buf, p.head[:len(p.head)-1]...)
	buf = append(buf, ',')
	buf = append(buf, placeholder...)
	buf = append(buf, `,"variants":[`...)
	for i, v := range p.variants {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, v[:len(v)-1]...)
		buf = append(buf, ',')
		buf = append(buf, placeholder...)
		buf = append(buf, '}')
	}
	return append(buf, "]}"...)
}

// newPage renders products with their ids; list pages are a JSON array, a
// product page (list false) its one object.
func newPage(ids []uuid.UUID, parts []productParts, list bool, total int64) *Page {
	p := &Page{Total: total, ids: ids, counts: make([]int, len(parts)), avail: make([][]int, len(parts))}
	buf := make([]byte, 0, 1024*len(parts)+2)
	if list {
		buf = append(buf, '[')
	}
	for i, pp := range parts {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendProduct(buf, pp)
		p.counts[i], p.avail[i] = len(pp.variants), pp.avail
	}
	if list {
		buf = append(buf, ']')
	}
	p.body = buf
	p.findSlots()
	return p
}

// Len is the number of products on the page.
func (p *Page) Len() int { return len(p.ids) }

// AppendJSON appends the page as answered (a []Product or a Product) with
// its current availability.
func (p *Page) AppendJSON(buf []byte) []byte {
	last := 0
	product, variant := 0, -1 // variant -1 is the product's own slot
	for _, at := range p.slots {
		if product >= len(p.ids) {
			break
		}
		buf = append(buf, p.body[last:at]...)
		last = at + len(placeholder)
		n := 0
		if variant < 0 {
			for _, a := range p.avail[product] {
				n += a
			}
		} else {
			n = p.avail[product][variant]
		}
		buf = append(buf, `"available":`...)
		buf = strconv.AppendInt(buf, int64(n), 10)
		buf = append(buf, `,"inStock":`...)
		buf = strconv.AppendBool(buf, n > 0)
		if variant++; variant >= p.counts[product] {
			product, variant = product+1, -1
		}
	}
	return append(buf, p.body[last:]...)
}

// findSlots records where the placeholders of body are.
func (p *Page) findSlots() {
	p.slots = p.slots[:0]
	ph := []byte(placeholder)
	for off := 0; ; {
		i := bytes.Index(p.body[off:], ph)
		if i < 0 {
			return
		}
		p.slots = append(p.slots, off+i)
		off += i + len(ph)
	}
}

// MarshalJSON stores the page in the cache as [total,"id:count;...",body],
// availability left out.
func (p *Page) MarshalJSON() ([]byte, error) {
	var meta strings.Builder
	for i, id := range p.ids {
		if i > 0 {
			meta.WriteByte(';')
		}
		meta.WriteString(id.String())
		meta.WriteByte(':')
		meta.WriteString(strconv.Itoa(p.counts[i]))
	}
	buf := make([]byte, 0, len(p.body)+meta.Len()+32)
	buf = append(buf, '[')
	buf = strconv.AppendInt(buf, p.Total, 10)
	buf = append(buf, ',', '"')
	buf = append(buf, meta.String()...)
	buf = append(buf, '"', ',')
	buf = append(buf, p.body...)
	return append(buf, ']'), nil
}

var errPageFormat = errors.New("browse: malformed cached page")

// UnmarshalJSON reads what MarshalJSON wrote. The caller (json.Unmarshal)
// has validated the JSON already; this only slices it.
func (p *Page) UnmarshalJSON(b []byte) error {
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' {
		return errPageFormat
	}
	b = b[1 : len(b)-1]
	totalText, rest, ok := bytes.Cut(b, []byte(`,"`))
	if !ok {
		return errPageFormat
	}
	total, err := strconv.ParseInt(string(totalText), 10, 64)
	if err != nil {
		return errPageFormat
	}
	meta, body, ok := bytes.Cut(rest, []byte(`",`))
	if !ok {
		return errPageFormat
	}
	*p = Page{Total: total, body: append([]byte(nil), body...)}
	p.findSlots()
	for _, entry := range strings.Split(string(meta), ";") {
		if entry == "" {
			continue
		}
		idText, countText, ok := strings.Cut(entry, ":")
		id, err1 := uuid.Parse(idText)
		n, err2 := strconv.Atoi(countText)
		if !ok || err1 != nil || err2 != nil || n < 0 {
			return errPageFormat
		}
		p.ids, p.counts = append(p.ids, id), append(p.counts, n)
		p.avail = append(p.avail, make([]int, n))
	}
	return nil
}
