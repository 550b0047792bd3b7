package mediaapi

import (
	"bytes"
	"regexp"

	"github.com/valyala/fasthttp"
)

// uploadPath is the one route whose body may exceed the server's limit.
var uploadPath = regexp.MustCompile(`^/api/v1/admin/products/[^/]+/images$`)

// AllowUploads raises the server's body limit for the image upload route
// alone, to maxBytes and room for the multipart framing. The limit is
// chosen from the request's header, so every other route still refuses a
// body over the server's own limit from its Content-Length, before it is
// sent, and an upload over MEDIA_MAX_BYTES is refused the same way.
func AllowUploads(srv *fasthttp.Server, maxBytes int64) {
	limit := int(maxBytes) + 64<<10
	srv.HeaderReceived = func(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
		if !h.IsPost() {
			return fasthttp.RequestConfig{}
		}
		path := h.RequestURI()
		if i := bytes.IndexByte(path, '?'); i >= 0 {
			path = path[:i]
		}
		if uploadPath.Match(path) {
			return fasthttp.RequestConfig{MaxRequestBodySize: limit}
		}
		return fasthttp.RequestConfig{}
	}
}
