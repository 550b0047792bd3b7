package main

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"time"

	"github.com/gocommerce/shop/internal/media/mediatest"
)

// Product media: the upload's answer at 4 connections, then how
// many 12-megapixel JPEGs a worker turns into renditions per second, and
// that worker's peak RSS with the default MEDIA_DECODE_CONCURRENCY. The
// uploads are answered before any rendering (the general worker is stopped
// meanwhile); a fresh worker then renders them alone, so its VmHWM is the
// renditions' memory, not the rest of the benchmark's.
const (
	mediaUploads = 40
	mediaConns   = 4
	mediaWidth   = 4000 // × 3000: 12 megapixels
	mediaHeight  = 3000
)

type mediaFigures struct {
	uploads       int
	fileBytes     int
	renderTime    time.Duration
	perSecond     float64
	workerRSS     float64
	decodeDefault string
}

// mediaScenario is the name of the upload scenario in the results.
const mediaScenario = "POST /admin/products/{id}/images (media, 12 MP JPEG)"

func (b *bench) measureMedia() error {
	photo := mediatest.Photo(mediaWidth, mediaHeight, 6)
	b.media = mediaFigures{uploads: mediaUploads, fileBytes: len(photo), decodeDefault: "2"}
	products := b.data.ProductIDs
	if len(products) > mediaUploads {
		products = products[:mediaUploads]
	}
	b.worker.stop()
	upload := func(name string, conns int) (Result, error) {
		return onceRun{name: name, conns: conns, items: mediaUploads,
			request: func(i int) *http.Request {
				var body bytes.Buffer
				w := multipart.NewWriter(&body)
				part, _ := w.CreateFormFile("file", "photo.jpg")
				part.Write(photo)
				w.WriteField("alt", "bench photo")
				w.Close()
				req, _ := http.NewRequest(http.MethodPost, b.apiURL+"/api/v1/admin/products/"+products[i%len(products)]+"/images", &body)
				req.Header.Set("Content-Type", w.FormDataContentType())
				req.Header.Set("Authorization", "Bearer "+b.token)
				return req
			},
			accepted: func(status int, _ []byte) bool { return status == http.StatusCreated },
		}.run()
	}
	if _, err := b.measure(scenario{name: mediaScenario, once: upload}, mediaConns); err != nil {
		return err
	}
	renderer, err := start("media-worker", b.work, b.bin, []string{"worker"}, b.env())
	if err != nil {
		return err
	}
	began := time.Now()
	deadline := began.Add(10 * time.Minute)
	for {
		var left int64
		if err := b.db.Raw(`SELECT count(*) FROM product_images WHERE status = 'processing'`).Scan(&left).Error; err != nil {
			renderer.stop()
			return err
		}
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			renderer.stop()
			return fmt.Errorf("media: %d images still processing after 10 minutes; see %s/media-worker.log", left, b.work)
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.media.renderTime = time.Since(began)
	b.media.workerRSS = renderer.peakRSSMB()
	renderer.stop()
	var failed int64
	b.db.Raw(`SELECT count(*) FROM product_images WHERE status = 'failed'`).Scan(&failed)
	if failed > 0 {
		return fmt.Errorf("media: %d benchmark images failed; see %s/media-worker.log", failed, b.work)
	}
	b.media.perSecond = float64(mediaUploads) / b.media.renderTime.Seconds()
	b.worker, err = start("worker", b.work, b.bin, []string{"worker"}, b.env())
	return err
}

func (b *bench) mediaTarget() target {
	return target{"worker peak RSS < 300 MiB rendering 12 MP JPEGs (default MEDIA_DECODE_CONCURRENCY)", func(b *bench) (string, bool) {
		if b.media.workerRSS == 0 {
			return "not measured", false
		}
		return fmt.Sprintf("%.0f MiB at %.2f renditions/s", b.media.workerRSS, b.media.perSecond), b.media.workerRSS < 300
	}}
}

func (b *bench) mediaReport() string {
	if b.media.renderTime == 0 {
		return ""
	}
	r, _ := b.find(mediaScenario, mediaConns)
	return fmt.Sprintf("Product media: %d uploads of a %d×%d phone JPEG (%.1f MiB, EXIF orientation 6) answered at %d connections with p50 %s, p99 %s; "+
		"one worker (MEDIA_DECODE_CONCURRENCY=%s, WORKER_CONCURRENCY=10) then made their renditions (full, 1200, 600, 200 px) at %.2f images/s (%s for %d), peak RSS %.0f MiB. "+
		"The product page and list above carry three images a product.\n\n",
		b.media.uploads, mediaWidth, mediaHeight, float64(b.media.fileBytes)/(1<<20), mediaConns, fmtDur(r.P50), fmtDur(r.P99),
		b.media.decodeDefault, b.media.perSecond, b.media.renderTime.Round(10*time.Millisecond), b.media.uploads, b.media.workerRSS)
}
