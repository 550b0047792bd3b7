package testkit

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
	"time"
)

// Chromium finds a Chromium binary for browser tests: $CHROMIUM, else
// chromium, chromium-browser or google-chrome on PATH; "" when there is
// none (`make test-tools` installs one).
func Chromium() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// RunChromium runs bin with args (within 60 s) and returns its standard
// output and standard error; it fails tb if Chromium fails.
func RunChromium(tb testing.TB, bin string, args ...string) (stdout, stderr string) {
	tb.Helper()
	cmd := exec.Command(bin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		tb.Fatalf("chromium: %v", err)
	}
	timer := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	if err := cmd.Wait(); err != nil {
		tb.Fatalf("chromium: %v\n%s", err, errOut.String())
	}
	return out.String(), errOut.String()
}

// MustChromium returns Chromium for a browser test (see Chromium). Without
// one the test skips, except when the environment variable CI is set: CI
// installs it (scripts/test-tools.sh), so there a missing browser fails the
// test instead of letting it pass unrun.
func MustChromium(tb testing.TB) string {
	tb.Helper()
	bin := Chromium()
	if bin != "" {
		return bin
	}
	if os.Getenv("CI") != "" {
		tb.Fatal("chromium not found, and CI is set: scripts/test-tools.sh (run by `make test`) installs it; or set CHROMIUM")
	}
	tb.Skip("chromium not installed (run `make test-tools` or scripts/test-tools.sh); skipping the browser check")
	return ""
}
