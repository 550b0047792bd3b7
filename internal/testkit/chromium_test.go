package testkit

import (
	"fmt"
	"runtime"
	"testing"
)

// outcomeTB records how a helper ended the test it was given: by Fatal or
// Skip (both stop the goroutine, as testing.T's do).
type outcomeTB struct {
	testing.TB
	outcome string
}

func (o *outcomeTB) Helper() {}
func (o *outcomeTB) Fatal(args ...any) {
	o.outcome = "fail: " + fmt.Sprint(args...)
	runtime.Goexit()
}
func (o *outcomeTB) Skip(args ...any) {
	o.outcome = "skip: " + fmt.Sprint(args...)
	runtime.Goexit()
}

func runHelper(tb testing.TB, f func(testing.TB) string) string {
	o := &outcomeTB{TB: tb}
	done := make(chan struct{})
	go func() {
		defer close(done)
		o.outcome = "returned " + f(o)
	}()
	<-done
	return o.outcome
}

// Without Chromium a browser test skips on a developer's machine and fails
// in CI, so that CI cannot pass with the browser checks unrun.
func TestMustChromiumFailsInCIWithoutChromium(t *testing.T) {
	t.Setenv("CHROMIUM", "")
	t.Setenv("PATH", t.TempDir())
	t.Setenv("CI", "")
	if got := runHelper(t, MustChromium); got[:5] != "skip:" {
		t.Fatalf("outside CI: %s, want a skip", got)
	}
	t.Setenv("CI", "true")
	if got := runHelper(t, MustChromium); got[:5] != "fail:" {
		t.Fatalf("in CI: %s, want a failure", got)
	}
	t.Setenv("CHROMIUM", "/opt/chromium/chrome")
	if got := runHelper(t, MustChromium); got != "returned /opt/chromium/chrome" {
		t.Fatalf("with $CHROMIUM: %s", got)
	}
}
