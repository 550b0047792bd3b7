package browse

import (
	"encoding/json"
	"strconv"

	"github.com/google/uuid"
)

// Rendered is a product pre-rendered for the wire: its JSON and its
// variants' JSON without availability, plus the availability to lay in.
// Cached pages hold Rendered values, so a hit costs a copy and a splice,
// not decoding and re-encoding every field.
type Rendered struct {
	ID       uuid.UUID         `json:"i"`
	Head     json.RawMessage   `json:"h"`
	Variants []RenderedVariant `json:"v"`
}

// RenderedVariant is a variant pre-rendered without availability.
type RenderedVariant struct {
	ID        uuid.UUID       `json:"i"`
	Head      json.RawMessage `json:"h"`
	Available int             `json:"-"`
}

// render pre-renders p; its availability is carried along.
func render(p Product) (Rendered, error) {
	head, err := json.Marshal(p.ProductInfo)
	if err != nil {
		return Rendered{}, err
	}
	r := Rendered{ID: p.ID, Head: head, Variants: make([]RenderedVariant, len(p.Variants))}
	for i, v := range p.Variants {
		vh, err := json.Marshal(v.VariantInfo)
		if err != nil {
			return Rendered{}, err
		}
		r.Variants[i] = RenderedVariant{ID: v.ID, Head: vh, Available: v.Available}
	}
	return r, nil
}

// Available is the product's units available over all its variants.
func (r *Rendered) Available() int {
	n := 0
	for _, v := range r.Variants {
		n += v.Available
	}
	return n
}

// AppendJSON appends the product as answered (the shape of Product) to buf.
func (r *Rendered) AppendJSON(buf []byte) []byte {
	buf = append(buf, r.Head[:len(r.Head)-1]...)
	buf = appendStock(buf, r.Available())
	buf = append(buf, `,"variants":[`...)
	for i, v := range r.Variants {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, v.Head[:len(v.Head)-1]...)
		buf = appendStock(buf, v.Available)
		buf = append(buf, '}')
	}
	return append(buf, "]}"...)
}

func appendStock(buf []byte, n int) []byte {
	buf = append(buf, `,"available":`...)
	buf = strconv.AppendInt(buf, int64(n), 10)
	buf = append(buf, `,"inStock":`...)
	return strconv.AppendBool(buf, n > 0)
}

// AppendJSON appends the page's products as a JSON array to buf.
func (p *Page) AppendJSON(buf []byte) []byte {
	buf = append(buf, '[')
	for i := range p.Products {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = p.Products[i].AppendJSON(buf)
	}
	return append(buf, ']')
}
