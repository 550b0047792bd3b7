package mediaapi_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/media/mediatest"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Every bad upload gets its exact status and code, and nothing is stored.
func TestUploadRefusesBadInput(t *testing.T) {
	e := newEnv(t, testkit.WithConfig(func(c *config.Config) { c.Media.MaxBytes = 64 << 10 }))
	p := e.product(t)
	other := e.product(t)
	big := append(mediatest.JPEG(20, 20), make([]byte, 64<<10)...) // over 64 KiB
	cases := []struct {
		name    string
		product string
		f       form
		invalid bool
		status  int
		field   string
	}{
		{"svg", "", form{file: mediatest.SVG, name: "logo.svg"}, false, 415, "file"},
		{"html named .png", "", form{file: []byte("<html><script>alert(1)</script></html>"), name: "a.png"}, false, 415, "file"},
		{"pdf", "", form{file: []byte("%PDF-1.7\n%âãÏÓ\n1 0 obj"), name: "a.jpg"}, false, 415, "file"},
		{"jpeg magic, broken header", "", form{file: append([]byte{0xFF, 0xD8, 0xFF, 0xE0}, bytes.Repeat([]byte{9}, 40)...)}, false, 415, "file"},
		{"png bomb", "", form{file: mediatest.BombPNG(100_000)}, false, 400, "file"},
		{"jpeg bomb", "", form{file: mediatest.BombJPEG()}, false, 400, "file"},
		{"over MEDIA_MAX_BYTES", "", form{file: big}, false, 413, "file"},
		{"no file", "", form{noFile: true, fields: [][2]string{{"alt", "x"}}}, true, 400, "file"},
		{"alt too long", "", form{file: mediatest.JPEG(20, 20), fields: [][2]string{{"alt", strings.Repeat("a", 513)}}}, true, 400, "alt"},
		{"variantIds not uuids", "", form{file: mediatest.JPEG(20, 20), fields: [][2]string{{"variantIds", "nope"}}}, true, 400, "variantIds"},
		{"another product's variant", "", form{file: mediatest.JPEG(20, 20), fields: [][2]string{{"variantIds", other.Variants[0].ID.String()}}}, false, 400, "variantIds"},
		{"unknown product", uuid.NewString(), form{file: mediatest.JPEG(20, 20)}, false, 404, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			id := p.ID.String()
			if c.product != "" {
				id = c.product
			}
			resp := e.upload(t, uuid.MustParse(id), c.f, c.invalid)
			code := map[int]string{400: "VALIDATION_ERROR", 404: "NOT_FOUND", 413: "VALIDATION_ERROR", 415: "VALIDATION_ERROR"}[c.status]
			body := resp.ExpectError(t, c.status, code)
			if c.field != "" && body.Error.Details["field"] != c.field {
				t.Fatalf("details %v, want field %s", body.Error.Details, c.field)
			}
		})
	}
	// A JSON body instead of a form.
	e.app.Do(t, http.MethodPost, admin+"/products/"+p.ID.String()+"/images", testkit.Req{Token: e.tok, Body: map[string]any{"file": "x"}, Invalid: true}).
		ExpectField(t, "Content-Type")
	if imgs := e.images(t, p.ID); len(imgs) != 0 {
		t.Fatalf("refused uploads left images: %v", imgs)
	}
	if files := e.files(t); len(files) != 0 {
		t.Fatalf("refused uploads left files: %v", files)
	}
}

// A bomb is refused from its header: the whole request allocates a few MiB
// at most, where decoding it would take 30 GB.
func TestBombIsRefusedBeforeAllocating(t *testing.T) {
	e := newEnv(t)
	p := e.product(t)
	bomb := mediatest.BombPNG(100_000)
	body, ct := form{file: bomb}.encode(t)
	req := testkit.Req{Token: e.tok, Body: body, Headers: map[string]string{"Content-Type": ct}}
	e.app.Do(t, http.MethodPost, admin+"/products/"+p.ID.String()+"/images", req).ExpectField(t, "file") // warm up
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	e.app.Do(t, http.MethodPost, admin+"/products/"+p.ID.String()+"/images", req).ExpectField(t, "file")
	runtime.ReadMemStats(&after)
	// Client, server and the contract check all run in this process, so
	// this bounds the server's allocation from above.
	if n := after.TotalAlloc - before.TotalAlloc; n > 8<<20 {
		t.Fatalf("refusing the bomb allocated %d bytes in the process, want at most 8 MiB", n)
	}
}

// A truncated file passes the header check and fails in the worker with a
// reason; its upload is deleted. A PNG with HTML after it is served as a
// PNG without the HTML.
func TestHostileFilesEndSafe(t *testing.T) {
	e := newEnv(t)
	p := e.product(t)
	truncated := e.upload(t, p.ID, form{file: mediatest.Truncated(400, 300)}, false).Expect(t, http.StatusCreated).Map(t)
	polyglot := e.upload(t, p.ID, form{file: mediatest.Polyglot(), name: "x.html"}, false).Expect(t, http.StatusCreated).Map(t)
	imgs := e.settled(t, p.ID)
	byID := map[string]map[string]any{}
	for _, im := range imgs {
		byID[str(im["id"])] = im
	}
	bad := byID[str(truncated["id"])]
	if bad["status"] != models.ImageFailed || !strings.Contains(str(bad["failureReason"]), "does not decode") || bad["url"] != nil {
		t.Fatalf("truncated upload: %v", bad)
	}
	good := byID[str(polyglot["id"])]
	if good["status"] != models.ImageReady {
		t.Fatalf("polyglot: %v", good)
	}
	_, key, _ := strings.Cut(str(good["url"]), "/media/")
	resp := get(t, e.app.URL+"/media/"+key, nil)
	var served bytes.Buffer
	served.ReadFrom(resp.Body)
	// An opaque PNG is re-encoded as a JPEG: type and content agree.
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/jpeg" || resp.Header.Get("X-Content-Type-Options") != "nosniff" ||
		bytes.Contains(served.Bytes(), []byte("<script")) || !bytes.HasPrefix(served.Bytes(), []byte{0xFF, 0xD8, 0xFF}) {
		t.Fatalf("polyglot served %d %v, body has script: %v", resp.StatusCode, resp.Header, bytes.Contains(served.Bytes(), []byte("<script")))
	}
	testkit.Eventually(t, 30*time.Second, "uploads deleted", func() bool {
		for _, f := range e.files(t) {
			if strings.HasPrefix(f, "uploads/") {
				return false
			}
		}
		return true
	})
	// The storefront shows only the ready one.
	var page struct {
		Images []struct{ ID string } `json:"images"`
	}
	e.app.Do(t, http.MethodGet, "/products/"+p.ID.String(), testkit.Req{}).Expect(t, http.StatusOK).JSON(t, &page)
	if len(page.Images) != 1 || page.Images[0].ID != str(polyglot["id"]) {
		t.Fatalf("storefront images %+v", page.Images)
	}
}

// At most 50 images a product: the 51st is a conflict.
func TestFiftyImagesAProduct(t *testing.T) {
	e := newEnv(t)
	p := e.product(t)
	for i := 0; i < 50; i++ {
		if err := e.app.DB.Exec(`INSERT INTO product_images (product_id, position, status, format, byte_size, width, height)
			VALUES (?, ?, 'failed', 'jpeg', 1, 1, 1)`, p.ID, i).Error; err != nil {
			t.Fatal(err)
		}
	}
	e.upload(t, p.ID, form{file: mediatest.JPEG(20, 20)}, false).ExpectError(t, http.StatusConflict, "CONFLICT")

	// The list is paginated like every list; one page holds all 50 unless
	// a limit is asked.
	path := "/products/" + p.ID.String() + "/images"
	type page struct {
		Data       []struct{ Position int } `json:"data"`
		Pagination httpx.Pagination         `json:"pagination"`
	}
	var all, third page
	e.do(t, http.MethodGet, path, nil).Expect(t, http.StatusOK).JSON(t, &all)
	if len(all.Data) != 50 || all.Pagination != (httpx.Pagination{Page: 1, Limit: 50, Total: 50, TotalPages: 1}) {
		t.Fatalf("every image: %d, %+v", len(all.Data), all.Pagination)
	}
	e.do(t, http.MethodGet, path+"?page=3&limit=20", nil).Expect(t, http.StatusOK).JSON(t, &third)
	if len(third.Data) != 10 || third.Data[0].Position != 40 || third.Pagination != (httpx.Pagination{Page: 3, Limit: 20, Total: 50, TotalPages: 3}) {
		t.Fatalf("page 3 of 20: %+v", third)
	}
	e.app.Do(t, http.MethodGet, admin+path+"?limit=101", testkit.Req{Token: e.tok, Invalid: true}).ExpectField(t, "limit")
}

// Concurrent uploads to one product get distinct places 0..n-1.
func TestConcurrentUploadsGetDistinctPositions(t *testing.T) {
	e := newEnv(t)
	p := e.product(t)
	const n = 6
	data := mediatest.JPEG(64, 64)
	start := make(chan struct{})
	done := make(chan float64, n)
	var inFlight, most atomic.Int32
	for i := 0; i < n; i++ {
		go func() {
			<-start
			now := inFlight.Add(1)
			for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
			}
			done <- e.upload(t, p.ID, form{file: data}, false).Expect(t, http.StatusCreated).Map(t)["position"].(float64)
			inFlight.Add(-1)
		}()
	}
	close(start)
	seen := map[float64]bool{}
	for i := 0; i < n; i++ {
		seen[<-done] = true
	}
	if len(seen) != n || most.Load() < 2 {
		t.Fatalf("positions %v (at most %d uploads at once), want %d distinct from overlapping uploads", seen, most.Load(), n)
	}
}

// The PATCH validates its fields.
func TestUpdateValidates(t *testing.T) {
	e := newEnv(t)
	p := e.product(t)
	id := str(e.upload(t, p.ID, form{file: mediatest.JPEG(20, 20)}, false).Expect(t, http.StatusCreated).Map(t)["id"])
	path := "/products/" + p.ID.String() + "/images/" + id
	for _, c := range []struct {
		body  any
		field string
	}{
		{map[string]any{"position": 1}, "position"},
		{map[string]any{"position": -1}, "position"},
		{map[string]any{"alt": nil}, "alt"},
		{map[string]any{"alt": strings.Repeat("é", 513)}, "alt"},
		{map[string]any{"variantIds": []string{uuid.NewString()}}, "variantIds"},
	} {
		e.app.Do(t, http.MethodPatch, admin+path, testkit.Req{Token: e.tok, Body: c.body, Invalid: true}).ExpectField(t, c.field)
	}
	e.do(t, http.MethodPatch, "/products/"+p.ID.String()+"/images/"+uuid.NewString(), map[string]any{"alt": "x"}).ExpectError(t, 404, "NOT_FOUND")
	e.do(t, http.MethodDelete, "/products/"+uuid.NewString()+"/images/"+id, nil).ExpectError(t, 404, "NOT_FOUND")
}

// A browser session (cookie) may upload only from a script that sends
// X-Requested-With: a cross-site form post carries no such header.
func TestCookieUploadNeedsXRequestedWith(t *testing.T) {
	e := newEnv(t)
	p := e.product(t)
	body, ct := form{file: mediatest.JPEG(20, 20)}.encode(t)
	send := func(extra map[string]string) *testkit.Response {
		h := map[string]string{"Content-Type": ct, "Cookie": "admin_access_token=" + e.tok}
		for k, v := range extra {
			h[k] = v
		}
		return e.app.Do(t, http.MethodPost, admin+"/products/"+p.ID.String()+"/images", testkit.Req{Body: body, Headers: h})
	}
	send(nil).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	send(map[string]string{"X-Requested-With": "XMLHttpRequest", "Sec-Fetch-Site": "cross-site"}).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	send(map[string]string{"X-Requested-With": "XMLHttpRequest", "Sec-Fetch-Site": "same-origin"}).Expect(t, http.StatusCreated)
	// Other admin routes still take only JSON.
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	w.WriteField("title", "x")
	w.Close()
	e.app.Do(t, http.MethodPost, admin+"/products", testkit.Req{Body: buf.Bytes(), Invalid: true, Headers: map[string]string{
		"Content-Type": w.FormDataContentType(), "Cookie": "admin_access_token=" + e.tok, "X-Requested-With": "XMLHttpRequest"}}).
		ExpectError(t, http.StatusForbidden, "FORBIDDEN")
}

// Bodies over 1 MiB stay refused on every other route, and an upload over
// MEDIA_MAX_BYTES is refused from its Content-Length, before it is sent.
// The oversized requests announce their length and send no body: the
// server answers from the header and closes, and a client still writing
// would see that close as a reset rather than the 413.
func TestBodyLimits(t *testing.T) {
	e := newEnv(t)
	p := e.product(t)
	refused := announce(t, e, "/products", "application/json", 2<<20)
	if refused.status != http.StatusRequestEntityTooLarge || !strings.Contains(refused.body, `"VALIDATION_ERROR"`) {
		t.Fatalf("a 2 MiB JSON body: %d %s, want 413 with the error envelope", refused.status, refused.body)
	}
	// Under the upload limit, over the API's: it reaches the handler.
	body, ct := form{file: append(mediatest.JPEG(40, 40), make([]byte, 3<<20)...)}.encode(t)
	e.app.Do(t, http.MethodPost, admin+"/products/"+p.ID.String()+"/images", testkit.Req{Token: e.tok, Body: body,
		Headers: map[string]string{"Content-Type": ct}}).Expect(t, http.StatusCreated)

	if r := announce(t, e, "/products/"+p.ID.String()+"/images", "multipart/form-data; boundary=x", 20<<20); r.status != http.StatusRequestEntityTooLarge {
		t.Fatalf("a 20 MiB upload: status %d, want 413 before the body", r.status)
	}
}

type answer struct {
	status int
	body   string
}

// announce sends the headers of an admin POST of length bytes and reads the
// answer without sending the body.
func announce(t *testing.T, e *env, path, contentType string, length int) answer {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.app.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s%s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: %s\r\nContent-Length: %d\r\n\r\n", admin, path, e.tok, contentType, length)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, string(b)}
}

// A viewer reads images but changes none.
func TestViewerCannotChangeImages(t *testing.T) {
	e := newEnv(t)
	p := e.product(t)
	_, viewer := testkit.MustAdmin(t, e.app, "viewer")
	v := &env{app: e.app, tok: viewer}
	v.upload(t, p.ID, form{file: mediatest.JPEG(20, 20)}, false).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	if imgs := v.images(t, p.ID); len(imgs) != 0 {
		t.Fatal(imgs)
	}
}

// A retried upload with the same Idempotency-Key and bytes is answered as
// the first was, and stores one image.
func TestUploadIsIdempotent(t *testing.T) {
	e := newEnv(t)
	p := e.product(t)
	body, ct := form{file: mediatest.JPEG(40, 40)}.encode(t)
	req := testkit.Req{Token: e.tok, Body: body, Headers: map[string]string{"Content-Type": ct, "Idempotency-Key": "upload-1"}}
	first := e.app.Do(t, http.MethodPost, admin+"/products/"+p.ID.String()+"/images", req).Expect(t, http.StatusCreated)
	again := e.app.Do(t, http.MethodPost, admin+"/products/"+p.ID.String()+"/images", req).Expect(t, http.StatusCreated)
	if again.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(first.Body, again.Body) {
		t.Fatalf("replay: %v %s", again.Header, again.Body)
	}
	if imgs := e.images(t, p.ID); len(imgs) != 1 {
		t.Fatalf("%d images after a replayed upload", len(imgs))
	}
}

// Each change is audited; the upload's entry names the file by size and
// hash (its bytes are not JSON).
func TestImageChangesAreAudited(t *testing.T) {
	e := newEnv(t)
	p := e.product(t)
	data := mediatest.JPEG(40, 40)
	id := str(e.upload(t, p.ID, form{file: data, fields: [][2]string{{"alt", "A"}}}, false).Expect(t, http.StatusCreated).Map(t)["id"])
	e.do(t, http.MethodPatch, "/products/"+p.ID.String()+"/images/"+id, map[string]any{"alt": "B"}).Expect(t, http.StatusOK)
	e.do(t, http.MethodDelete, "/products/"+p.ID.String()+"/images/"+id, nil).Expect(t, http.StatusNoContent)
	var rows []struct {
		Action   string
		EntityID string
		Metadata string
	}
	e.app.DB.Raw(`SELECT action, entity_id, metadata::text AS metadata FROM admin_audit_logs WHERE action LIKE 'product_image.%' ORDER BY created_at`).Scan(&rows)
	if len(rows) != 3 || rows[0].Action != "product_image.create" || rows[1].Action != "product_image.update" || rows[2].Action != "product_image.delete" {
		t.Fatalf("audit entries %+v", rows)
	}
	for _, r := range rows {
		if r.EntityID != id {
			t.Fatalf("entry %s names %s, want %s", r.Action, r.EntityID, id)
		}
	}
	sum := sha256.Sum256(data)
	if !strings.Contains(rows[0].Metadata, hex.EncodeToString(sum[:])) || !strings.Contains(rows[0].Metadata, `"alt": "A"`) {
		t.Fatalf("upload entry metadata %s", rows[0].Metadata)
	}
}
