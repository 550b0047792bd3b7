package resetpage_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gocommerce/shop/api/resetpage"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/testkit"
)

func TestResetPageIsServed(t *testing.T) {
	app := testkit.MustApp(t)
	r := app.Do(t, "GET", resetpage.Path+"?token=abc", testkit.Req{}).Expect(t, http.StatusOK)
	for header, want := range map[string]string{
		"Content-Type":            "text/html; charset=utf-8",
		"Cache-Control":           "no-store",
		"Referrer-Policy":         "no-referrer",
		"Content-Security-Policy": "script-src 'self'",
		"X-Frame-Options":         "DENY",
		"X-Content-Type-Options":  "nosniff",
	} {
		if got := r.Header.Get(header); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", header, got, want)
		}
	}
	if !strings.Contains(string(r.Body), `src="`+resetpage.ScriptPath+`"`) {
		t.Fatalf("the page does not load %s:\n%s", resetpage.ScriptPath, r.Body)
	}
	s := app.Do(t, "GET", resetpage.ScriptPath, testkit.Req{}).Expect(t, http.StatusOK)
	if !strings.Contains(string(s.Body), "/customers/password/reset") {
		t.Fatal("the script does not post to /customers/password/reset")
	}
}

var resetLink = regexp.MustCompile(`https?://\S+(/account/reset-password\?\S+)`)

// The link of a real reset email, opened in a browser: the page takes the
// token out of the address bar, the customer chooses a password, the
// account signs in with it and the session from before is over. The link
// works once: opened again, the page says so.
func TestResetEmailLinkWorksInABrowser(t *testing.T) {
	bin := testkit.MustChromium(t)
	smtp := testkit.StartSMTP(t)
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.SMTPURL = smtp.URL() }))
	cu, before := testkit.MustCustomer(t, app)
	ctx := context.Background()
	if err := app.Customers.RequestPasswordReset(ctx, cu.Email); err != nil {
		t.Fatal(err)
	}
	if _, err := app.PasswordResetMailer.SendPending(ctx); err != nil {
		t.Fatal(err)
	}
	mails := smtp.To(cu.Email)
	if len(mails) != 1 {
		t.Fatalf("%d reset emails, want 1", len(mails))
	}
	link := resetLink.FindStringSubmatch(mails[0].Body)
	if link == nil {
		t.Fatalf("no reset link in %q", mails[0].Body)
	}

	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(bin), chromedp.Headless,
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()), chromedp.Flag("disable-dev-shm-usage", true))
	defer cancelAlloc()
	bctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	var mu sync.Mutex
	var problems []string
	messages := chromedp.Console(bctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			// The second submission's 400 is the answer the page expects.
			if m.IsException() || (m.Type == chromedp.ConsoleError && !strings.Contains(m.Text, "400")) || m.Source == "security" {
				mu.Lock()
				problems = append(problems, m.Text)
				mu.Unlock()
			}
		}
	}()
	bctx, timeout := context.WithTimeout(bctx, 60*time.Second)
	defer timeout()
	step := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("browser: %s: %v", what, err)
		}
	}
	// submit opens the link, chooses password and returns the page's answer
	// once it starts with want.
	submit := func(password, want string) string {
		t.Helper()
		step("open the link", chromedp.Do(bctx, chromedp.Navigate(app.URL+link[1]), chromedp.WaitVisible(chromedp.CSS("#password"))))
		location, err := chromedp.Run(bctx, chromedp.Location())
		step("read the address", err)
		if strings.Contains(location, "token") || !strings.HasSuffix(location, resetpage.Path) {
			t.Errorf("address bar %q still carries the token", location)
		}
		step("submit", chromedp.Do(bctx, chromedp.SendKeys(chromedp.CSS("#password"), password), chromedp.Click(chromedp.CSS("#submit"))))
		status, err := chromedp.Run(bctx, chromedp.Poll[string](`document.getElementById('status').textContent.startsWith(`+
			"'"+want+"'"+`) && document.getElementById('status').textContent`, chromedp.WithPollingTimeout(20*time.Second)))
		step("wait for the answer", err)
		return status
	}
	if status := submit("my-new-password-1", "Your password is changed"); !strings.Contains(status, cu.Email) {
		t.Errorf("status %q", status)
	}
	if status := submit("another-password-2", "Your password was not changed"); !strings.Contains(status, "Ask for a new link") {
		t.Errorf("a spent link: status %q", status)
	}
	mu.Lock()
	if len(problems) > 0 {
		t.Errorf("the page logged problems: %v", problems)
	}
	mu.Unlock()

	app.Do(t, "POST", "/customers/login", testkit.Req{Body: map[string]any{"email": cu.Email, "password": "my-new-password-1"}}).
		Expect(t, http.StatusOK)
	app.Do(t, "GET", "/customers/me", testkit.Req{Token: before}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
}
