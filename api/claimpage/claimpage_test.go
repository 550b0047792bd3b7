package claimpage_test

import (
	"context"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gocommerce/shop/api/claimpage"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

func TestClaimPageIsServed(t *testing.T) {
	app := testkit.MustApp(t)
	r := app.Do(t, "GET", claimpage.Path+"?email=a%40example.com&token=abc", testkit.Req{}).Expect(t, http.StatusOK)
	for header, want := range map[string]string{
		"Content-Type":            "text/html; charset=utf-8",
		"Cache-Control":           "no-store",
		"Referrer-Policy":         "no-referrer",
		"Content-Security-Policy": "script-src 'self'",
	} {
		if got := r.Header.Get(header); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", header, got, want)
		}
	}
	if !strings.Contains(string(r.Body), `src="`+claimpage.ScriptPath+`"`) {
		t.Fatalf("the page does not load %s:\n%s", claimpage.ScriptPath, r.Body)
	}
	s := app.Do(t, "GET", claimpage.ScriptPath, testkit.Req{}).Expect(t, http.StatusOK)
	if !strings.Contains(string(s.Body), "/customers/claim") {
		t.Fatal("the script does not post to /customers/claim")
	}
}

var claimLink = regexp.MustCompile(`https?://\S+(/account/claim\?\S+)`)

// The link of a real claim email, opened in a browser: the page takes the
// token out of the address bar, the guest chooses a password, and the
// account signs in with it.
func TestClaimEmailLinkWorksInABrowser(t *testing.T) {
	bin := testkit.Chromium()
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium not installed: CI runs the claim page's browser test (make chromium)")
		}
		t.Skip("chromium not installed (make chromium); skipping the claim page's browser test")
	}
	smtp := testkit.StartSMTP(t)
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.SMTPURL = smtp.URL() }))
	guest := models.Customer{ID: uuid.New(), Email: "guest-" + uuid.NewString()[:8] + "@example.com", Name: "Asha", IsGuest: true, IsActive: true}
	if err := app.DB.Create(&guest).Error; err != nil {
		t.Fatal(err)
	}
	if err := app.Claims.ClaimEmail(context.Background(), guest.ID); err != nil {
		t.Fatal(err)
	}
	mails := smtp.To(guest.Email)
	if len(mails) != 1 {
		t.Fatalf("%d claim emails, want 1", len(mails))
	}
	link := claimLink.FindStringSubmatch(mails[0].Body)
	if link == nil {
		t.Fatalf("no claim link in %q", mails[0].Body)
	}

	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(bin), chromedp.Headless,
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()), chromedp.Flag("disable-dev-shm-usage", true))
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	var mu sync.Mutex
	var problems []string
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == chromedp.ConsoleError || m.Source == "security" {
				mu.Lock()
				problems = append(problems, m.Text)
				mu.Unlock()
			}
		}
	}()
	ctx, timeout := context.WithTimeout(ctx, 60*time.Second)
	defer timeout()
	step := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("browser: %s: %v", what, err)
		}
	}
	step("open the link", chromedp.Do(ctx, chromedp.Navigate(app.URL+link[1]), chromedp.WaitVisible(chromedp.CSS("#password"))))
	email, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS("#email")))
	step("read the email field", err)
	location, err := chromedp.Run(ctx, chromedp.Location())
	step("read the address", err)
	step("submit", chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#password"), "my-new-password-1"), chromedp.Click(chromedp.CSS("#submit"))))
	status, err := chromedp.Run(ctx, chromedp.Poll[string](`document.getElementById('status').textContent.startsWith('Your account is ready') &&
		document.getElementById('status').textContent`, chromedp.WithPollingTimeout(20*time.Second)))
	step("wait for the answer", err)
	if email != guest.Email {
		t.Errorf("email field %q, want %q from the link", email, guest.Email)
	}
	if strings.Contains(location, "token") || !strings.HasSuffix(location, claimpage.Path) {
		t.Errorf("address bar %q still carries the token", location)
	}
	if !strings.Contains(status, guest.Email) {
		t.Errorf("status %q", status)
	}
	mu.Lock()
	if len(problems) > 0 {
		t.Errorf("the page logged problems: %v", problems)
	}
	mu.Unlock()

	login := app.Do(t, "POST", "/customers/login", testkit.Req{Body: map[string]any{"email": guest.Email, "password": "my-new-password-1"}}).
		Expect(t, http.StatusOK).Map(t)
	if login["access_token"] == "" {
		t.Fatalf("login after the claim: %v", login)
	}
}
