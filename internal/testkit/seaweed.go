package testkit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// WeedVersion is the SeaweedFS release whose `weed` binary the S3 tests
// run; the Makefile builds it from the Go module proxy into
// bin/weed-<version>/weed (WEED_VERSION there must match).
const WeedVersion = "v0.0.0-20261109003541-7506e5f91cd6"

// PrivateS3 is a SeaweedFS server of the test's own (master, volume, filer
// and S3 gateway in one process) on loopback ports and a temporary
// directory, with one bucket. It is a real S3 implementation, not a mock.
type PrivateS3 struct {
	Endpoint  string // http://127.0.0.1:port
	Bucket    string
	AccessKey string
	SecretKey string
	// Client reads the bucket as the tests' witness of what is stored.
	Client *minio.Client
	cmd    *exec.Cmd
}

// StartS3 starts the server and creates its bucket; it is stopped and its
// directory removed when tb ends. Without the weed binary the test is
// skipped, or fails when the CI variable is set (CI must run it).
func StartS3(tb testing.TB) *PrivateS3 {
	tb.Helper()
	bin := weedBinary()
	if bin == "" {
		if os.Getenv("CI") != "" {
			tb.Fatalf("testkit: the SeaweedFS binary (bin/weed-%s/weed) is missing; `make test` builds it (make weed)", WeedVersion)
		}
		tb.Skipf("SeaweedFS binary missing: run `make weed` to build bin/weed-%s/weed", WeedVersion)
	}
	dir, err := os.MkdirTemp("", "shop-s3-")
	if err != nil {
		tb.Fatalf("testkit: temp dir: %v", err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	s := &PrivateS3{Bucket: "shop-media", AccessKey: "shop-test-key", SecretKey: "shop-test-secret-0123456789"}
	config := fmt.Sprintf(`{"identities":[{"name":"shop","credentials":[{"accessKey":%q,"secretKey":%q}],"actions":["Admin","Read","Write","List","Tagging"]}]}`,
		s.AccessKey, s.SecretKey)
	if err := os.WriteFile(filepath.Join(dir, "s3.json"), []byte(config), 0o600); err != nil {
		tb.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "data"), 0o700); err != nil {
		tb.Fatal(err)
	}
	port := func() string { return strconv.Itoa(FreePort(tb)) }
	s3Port := port()
	s.Endpoint = "http://127.0.0.1:" + s3Port
	args := []string{"server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-dir=" + filepath.Join(dir, "data"),
		"-master.port=" + port(), "-master.port.grpc=" + port(), "-master.volumeSizeLimitMB=64",
		"-volume.port=" + port(), "-volume.port.grpc=" + port(), "-volume.max=8",
		"-filer", "-filer.port=" + port(), "-filer.port.grpc=" + port(), "-filer.localSocket=" + filepath.Join(dir, "filer.sock"),
		"-s3", "-s3.port=" + s3Port, "-s3.port.grpc=" + port(), "-s3.port.iceberg=0", "-s3.port.lance=0",
		"-s3.config=" + filepath.Join(dir, "s3.json"), "-s3.localSocket=" + filepath.Join(dir, "s3.sock"), "-debug.port=0"}
	var logs bytes.Buffer
	s.cmd = exec.Command(bin, args...)
	s.cmd.Stdout, s.cmd.Stderr = &logs, &logs
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		tb.Fatalf("testkit: weed: %v", err)
	}
	tb.Cleanup(s.Stop)
	s.Client, err = minio.New("127.0.0.1:"+s3Port, &minio.Options{
		Creds: credentials.NewStaticV4(s.AccessKey, s.SecretKey, ""), BucketLookup: minio.BucketLookupPath, Region: "us-east-1"})
	if err != nil {
		tb.Fatal(err)
	}
	// The gateway answers before the filer and a volume are ready: wait
	// for a bucket and an object round trip.
	deadline := time.Now().Add(90 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = s.ready(ctx)
		cancel()
		if err == nil {
			return s
		}
		if time.Now().After(deadline) {
			tb.Fatalf("testkit: SeaweedFS not ready after 90 s: %v\n%s", err, tail(logs.Bytes(), 4000))
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func (s *PrivateS3) ready(ctx context.Context) error {
	if ok, err := s.Client.BucketExists(ctx, s.Bucket); err != nil {
		return err
	} else if !ok {
		if err := s.Client.MakeBucket(ctx, s.Bucket, minio.MakeBucketOptions{Region: "us-east-1"}); err != nil {
			return err
		}
	}
	if _, err := s.Client.PutObject(ctx, s.Bucket, ".ready", bytes.NewReader([]byte("ok")), 2, minio.PutObjectOptions{}); err != nil {
		return err
	}
	return s.Client.RemoveObject(ctx, s.Bucket, ".ready", minio.RemoveObjectOptions{})
}

// Keys lists every object of the bucket.
func (s *PrivateS3) Keys(tb testing.TB) []string {
	tb.Helper()
	var out []string
	for o := range s.Client.ListObjects(context.Background(), s.Bucket, minio.ListObjectsOptions{Recursive: true}) {
		if o.Err != nil {
			tb.Fatalf("testkit: list bucket: %v", o.Err)
		}
		out = append(out, o.Key)
	}
	return out
}

// Read returns an object and whether it exists.
func (s *PrivateS3) Read(tb testing.TB, key string) ([]byte, minio.ObjectInfo, bool) {
	tb.Helper()
	info, err := s.Client.StatObject(context.Background(), s.Bucket, key, minio.StatObjectOptions{})
	if r := minio.ToErrorResponse(err); r.Code == minio.NoSuchKey || r.StatusCode == 404 {
		return nil, info, false
	}
	if err != nil {
		tb.Fatal(err)
	}
	obj, err := s.Client.GetObject(context.Background(), s.Bucket, key, minio.GetObjectOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	defer obj.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(obj); err != nil {
		if r := minio.ToErrorResponse(err); r.Code == minio.NoSuchKey || r.StatusCode == 404 {
			return nil, info, false // deleted since the stat
		}
		tb.Fatal(err)
	}
	return buf.Bytes(), info, true
}

// Stop kills the server (the tests of an unreachable store call it).
func (s *PrivateS3) Stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	s.cmd = nil
}

// weedBinary returns $WEED, else bin/weed-<version>/weed of the module
// root above the working directory, if it exists.
func weedBinary() string {
	if p := os.Getenv("WEED"); p != "" {
		return p
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(dir, "bin", "weed-"+WeedVersion, "weed")
			if _, err := os.Stat(p); err == nil {
				return p
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
