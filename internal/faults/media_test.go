//go:build faults

package faults_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/media/mediatest"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
)

// A worker killed (SIGKILL) while it renders an image leaves the image
// processing; a worker started afterwards takes the task over (asynq's
// lease expires) and finishes it: ready, renditions stored, the upload
// deleted.
func TestWorkerKilledMidRenditionFinishesAfterRestart(t *testing.T) {
	dir := t.TempDir()
	c := newCluster(t, "MEDIA_DIR="+dir, "MEDIA_DECODE_CONCURRENCY=1")
	api := c.Start("api", "api")
	tok := c.AdminToken("admin")
	p := testkit.MustStoreProduct(t, c.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 1}}})

	// A 39-megapixel photograph: seconds of decoding and resampling.
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, _ := w.CreateFormFile("file", "big.jpg")
	part.Write(mediatest.PhoneJPEG(7200, 5400, 6))
	w.Close()
	req, _ := http.NewRequest(http.MethodPost, api.URL+"/api/v1/admin/products/"+p.ID.String()+"/images", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %s", resp.StatusCode, answer)
	}

	insp := c.Inspector()
	worker := c.Start("worker", "worker")
	testkit.Eventually(t, 30*time.Second, "the rendition to start", func() bool {
		active, _ := insp.ListActiveTasks(tasks.QueueDefault)
		for _, a := range active {
			if a.Type == tasks.TypeMediaProcess {
				return true
			}
		}
		return false
	})
	time.Sleep(300 * time.Millisecond)
	worker.Kill()
	status := func() string {
		var s string
		c.DB.Raw(`SELECT status FROM product_images WHERE product_id = ?`, p.ID).Scan(&s)
		return s
	}
	if s := status(); s != models.ImageProcessing {
		t.Fatalf("status %q when the worker was killed: the kill did not land mid-rendition", s)
	}

	c.Start("worker-2", "worker")
	testkit.Eventually(t, 3*time.Minute, "the image ready after the restart", func() bool { return status() == models.ImageReady })
	testkit.Eventually(t, 90*time.Second, "the upload deleted", func() bool {
		_, err := os.Stat(filepath.Join(dir, "uploads"))
		entries, _ := os.ReadDir(filepath.Join(dir, "uploads"))
		return os.IsNotExist(err) || len(entries) == 0
	})
	var files []string
	filepath.WalkDir(filepath.Join(dir, "products"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			files = append(files, path)
		}
		return nil
	})
	if len(files) != 4 {
		t.Fatalf("%d rendition files, want 4: %v", len(files), files)
	}
}
