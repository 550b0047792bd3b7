package systemapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/tasks"
)

// cspReporter turns every Content-Security-Policy violation into a console
// error the test sees.
const cspReporter = `document.addEventListener('securitypolicyviolation', (e) =>
  console.error('CSP violation: ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline')));`

// pageLog is what a tab did: the URL of every request it made, and its
// exceptions, console errors and policy violations.
type pageLog struct {
	mu       sync.Mutex
	requests []string
	problems []string
}

// record is a chromedp listener; it runs in the tab's event loop.
func (l *pageLog) record(ev any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		l.requests = append(l.requests, ev.Request.URL)
	case *runtime.EventExceptionThrown:
		l.problems = append(l.problems, "exception: "+ev.ExceptionDetails.Text)
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError {
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
			}
			l.problems = append(l.problems, "console error: "+strings.Join(parts, " "))
		}
	}
}

// The dashboard renders in a real browser signed in by the admin cookie,
// under its policy, and every request it makes stays on this machine: the
// page, its scripts and its API calls, and no fonts from the internet. The
// cookie is set by a tiny page on another port of 127.0.0.1 (cookies ignore
// ports) that redirects to the dashboard.
func TestDashboardInHeadlessChromium(t *testing.T) {
	bin := testkit.MustChromium(t)
	app := testkit.MustApp(t)
	_, super := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	task, opts := tasks.NewReconcileTask("browser-job") // so the queue table has a row
	if err := tasks.Enqueue(t.Context(), app.Queue, task, opts...); err != nil {
		t.Fatal(err)
	}
	dashboard := app.URL + "/api/v1/admin/queues/"
	login := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: adminroute.AccessCookie, Value: super, Path: "/api/v1/admin", HttpOnly: true})
		http.Redirect(w, r, dashboard, http.StatusFound)
	}))
	defer login.Close()

	var log pageLog
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
	)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc, chromedp.WithListener(log.record))
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	defer cancelTimeout()

	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspReporter})
		return err
	}), chromedp.Navigate(login.URL)); err != nil {
		t.Fatalf("browser: open the dashboard: %v", err)
	}
	// The React app rendered (its bundle loaded with the cookie) and read
	// the queues through the API: the low queue's row is there.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](
		`document.title === 'Asynq - Monitoring' && [...document.querySelectorAll('td, th, a')].some((e) => e.textContent.trim() === 'low')`,
		chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		dom, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
		t.Fatalf("dashboard did not render: %v; dom: %.2000s", err, dom)
	}
	// Material UI's styles were injected, under the page's nonce.
	styled, err := chromedp.Run(ctx, chromedp.Evaluate[int](`[...document.querySelectorAll('style[data-jss]')].filter((s) => s.nonce).length`))
	if err != nil || styled == 0 {
		t.Fatalf("no JSS style element carries the nonce (%d, %v)", styled, err)
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil || len(shot) < 5000 {
		t.Fatalf("screenshot: %v (%d bytes)", err, len(shot))
	}
	time.Sleep(200 * time.Millisecond) // the last events of the page's polling

	log.mu.Lock()
	defer log.mu.Unlock()
	local := 0
	for _, raw := range log.requests {
		if u, err := url.Parse(raw); err != nil || (u.Scheme != "data" && u.Hostname() != "127.0.0.1") {
			t.Errorf("request leaves this machine: %s", raw)
			continue
		}
		local++
	}
	if local < 4 { // the sign-in redirect, the dashboard, its two scripts, the API
		t.Errorf("only %d requests seen: %v", local, log.requests)
	}
	if len(log.problems) > 0 {
		t.Errorf("the page logged problems:\n%s", strings.Join(log.problems, "\n"))
	}
	dir := os.Getenv("SCREENSHOT_DIR") // e.g. a CI artifact directory
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, "dashboard.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("dashboard screenshot: %s (%d bytes)", path, len(shot))
}
