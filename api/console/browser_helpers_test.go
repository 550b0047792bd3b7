package console_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/gocommerce/shop/internal/testkit"
)

// stepTimeout bounds one browser step: far above what a step takes, so a
// timeout means the page never reached the state waited for.
const stepTimeout = 20 * time.Second

// browser is one tab of a headless Chromium driving the console. It records
// uncaught exceptions, console errors and Content-Security-Policy violations
// of its pages; check fails the test when there were any.
type browser struct {
	t    *testing.T
	ctx  context.Context
	base string

	mu       sync.Mutex
	problems []string
}

// newBrowser starts Chromium with the flags the other browser test uses and
// opens a tab 1280 px wide. The browser stops when t ends.
func newBrowser(t *testing.T, bin, base string) *browser {
	t.Helper()
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
	)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	b := &browser{t: t, ctx: ctx, base: base}
	b.watch()
	return b
}

// newTab opens a tab with its own cookie jar (a separate browser context),
// as a second person on another computer.
func (b *browser) newTab(t *testing.T) *browser {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	nb := &browser{t: t, ctx: ctx, base: b.base}
	nb.watch()
	return nb
}

// cspReporter turns every CSP violation into a console error the watcher sees.
const cspReporter = `document.addEventListener('securitypolicyviolation', (e) =>
  console.error('CSP violation: ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber));`

func (b *browser) watch() {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspReporter})
		return err
	})); err != nil {
		b.t.Fatalf("browser: %v", err)
	}
	messages := chromedp.Console(b.ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			// Network errors are the API's expected refusals (401 before
			// sign-in, 403 for a viewer), logged by the browser itself.
			if m.IsException() || (m.Type == chromedp.ConsoleError && m.Source != "network") || m.Source == "security" {
				b.mu.Lock()
				b.problems = append(b.problems, fmt.Sprintf("%s %s (%s:%d)", m.Type, m.Text, m.URL, m.Line+1))
				b.mu.Unlock()
			}
		}
	}()
}

// check fails the test if a page threw, logged an error or broke the CSP.
func (b *browser) check() {
	b.t.Helper()
	time.Sleep(100 * time.Millisecond) // let the last events arrive
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.problems) > 0 {
		b.t.Fatalf("the console logged problems:\n%s", strings.Join(b.problems, "\n"))
	}
}

// do runs steps with a timeout; on failure it reports the page's text.
func (b *browser) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("browser: %s: %v\npage %s:\n%s", what, err, b.location(), b.pageText())
	}
}

func (b *browser) location() string {
	ctx, cancel := context.WithTimeout(b.ctx, 3*time.Second)
	defer cancel()
	loc, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	return loc
}

func (b *browser) pageText() string {
	ctx, cancel := context.WithTimeout(b.ctx, 3*time.Second)
	defer cancel()
	text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ''`))
	if len(text) > 3000 {
		text = text[:3000] + "…"
	}
	return text
}

// eval evaluates a JavaScript expression and decodes its value into T.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, stepTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("browser: evaluate %s: %v", expr, err)
	}
	return v
}

// js renders Go values as JavaScript literals (JSON), for building expressions.
func js(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}

// waitUntil polls a JavaScript predicate until it is true.
func (b *browser) waitUntil(what, predicate string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, stepTimeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](predicate, chromedp.WithPollingTimeout(stepTimeout),
		chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		b.t.Fatalf("browser: waiting for %s: %v\npage %s:\n%s", what, err, b.location(), b.pageText())
	}
}

// open loads a console URL (a full page load) and waits for its heading.
func (b *browser) open(path, heading string) {
	b.t.Helper()
	b.do("open "+path, chromedp.Navigate(b.base+path))
	b.waitHeading(heading)
}

// waitHeading waits until the page's h1 starts with text and it has loaded.
func (b *browser) waitHeading(text string) {
	b.t.Helper()
	b.waitUntil("the heading "+text, fmt.Sprintf(`(() => { const h = document.querySelector('h1');
		return !!h && h.textContent.trim().startsWith(%s) && !document.querySelector('main > .loading'); })()`, js(text)))
}

// waitText waits until the main area shows text.
func (b *browser) waitText(text string) {
	b.t.Helper()
	b.waitUntil("the text "+text, fmt.Sprintf(`(document.querySelector('main') || document.body).innerText.includes(%s)`, js(text)))
}

// scopeJS is the element searched: the topmost open dialog, else the form
// labelled scope, else the document.
func scopeJS(scope string) string {
	if scope == "" {
		return `([...document.querySelectorAll('dialog[open]')].pop() || document)`
	}
	return fmt.Sprintf(`document.querySelector('form[aria-label=%s]')`, js(scope))
}

// fill sets the control whose <label> starts with label (in scope) to value,
// as typing would; a checkbox takes "true" or "false". Finding the control
// through its label also checks that it is labelled.
func (b *browser) fill(scope, label, value string) {
	b.t.Helper()
	expr := fmt.Sprintf(`(() => {
		const root = %s;
		if (!root) return false;
		const l = [...root.querySelectorAll('label')].find((l) => l.textContent.replace(/\s*\*\s*$/, '').trim().startsWith(%s));
		const el = l && document.getElementById(l.htmlFor);
		if (!el) return false;
		if (el.type === 'checkbox') el.checked = %s === 'true'; else el.value = %s;
		el.dispatchEvent(new Event('input', { bubbles: true }));
		el.dispatchEvent(new Event('change', { bubbles: true }));
		return true;
	})()`, scopeJS(scope), js(label), js(value), js(value))
	b.waitUntil(fmt.Sprintf("a control labelled %q", label), expr)
}

// press clicks, with the mouse, the visible button, link or summary whose
// text is exactly text (or whose aria-label is), in scope.
func (b *browser) press(scope, text string) {
	b.t.Helper()
	sel := chromedp.JSPath(fmt.Sprintf(`[...%s.querySelectorAll('button, a, summary')].find((e) =>
		(e.textContent.trim() === %s || e.getAttribute('aria-label') === %s) && e.getClientRects().length > 0 && !e.disabled)`,
		scopeJS(scope), js(text), js(text)))
	b.do("press "+text, chromedp.Click(sel, chromedp.NodeVisible))
}

// set gives the control matched by a CSS selector a value, as typing would.
func (b *browser) set(css, value string) {
	b.t.Helper()
	b.waitUntil("the control "+css, fmt.Sprintf(`(() => {
		const el = document.querySelector(%s);
		if (!el) return false;
		if (el.type === 'checkbox') el.checked = %s === 'true'; else el.value = %s;
		el.dispatchEvent(new Event('input', { bubbles: true }));
		return true;
	})()`, js(css), js(value), js(value)))
}

// controls lists the visible buttons and form controls of the main area:
// what a person could act on.
func (b *browser) controls() []string {
	b.t.Helper()
	return eval[[]string](b, `[...document.querySelectorAll('main button, main input, main select, main textarea, main summary')]
		.filter((e) => e.getClientRects().length > 0 || e.tagName === 'SUMMARY')
		.map((e) => e.tagName.toLowerCase() + ':' + (e.textContent.trim() || e.getAttribute('aria-label') || e.name || ''))`)
}

// accessible checks what a keyboard and a screen reader need on the current
// page: every control is a real control with a name and a label, nothing
// clickable is a bare div or span.
func (b *browser) accessible() {
	b.t.Helper()
	bad := eval[[]string](b, `(() => {
		const out = [];
		for (const el of document.querySelectorAll('input, select, textarea')) {
			if (el.type === 'hidden') continue;
			const labelled = (el.id && document.querySelector('label[for="' + el.id + '"]')) || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
			if (!labelled) out.push('unlabelled ' + el.outerHTML.slice(0, 80));
		}
		for (const el of document.querySelectorAll('button, a')) {
			if (!(el.textContent.trim() || el.getAttribute('aria-label'))) out.push('nameless ' + el.outerHTML.slice(0, 80));
		}
		for (const el of document.querySelectorAll('div[tabindex], span[tabindex], [onclick], [style]')) {
			out.push('not a real control or inline style ' + el.outerHTML.slice(0, 80));
		}
		return out;
	})()`)
	if len(bad) > 0 {
		b.t.Fatalf("accessibility on %s:\n%s", b.location(), strings.Join(bad, "\n"))
	}
}

// screenshot writes the viewport, at width × height, to dir/name-width.png.
func (b *browser) screenshot(dir, name string, width, height int64) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, stepTimeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	file := filepath.Join(dir, fmt.Sprintf("%s-%d.png", name, width))
	if err := os.WriteFile(file, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot %s (%d bytes)", file, len(png))
}

// viewport sets the tab's size.
func (b *browser) viewport(width, height int64) {
	b.t.Helper()
	b.do("viewport", chromedp.EmulateViewport(width, height))
}

// pick types term into the picker labelled label (in scope), as a person
// would (focused, then typed), waits for the match whose label is option
// and clicks it with the mouse; the picker then shows option.
func (b *browser) pick(scope, label, term, option string) {
	b.t.Helper()
	b.waitUntil(fmt.Sprintf("a picker labelled %q", label), fmt.Sprintf(`(() => {
		const root = %s;
		if (!root) return false;
		const l = [...root.querySelectorAll('label')].find((l) => l.textContent.replace(/\s*\*\s*$/, '').trim().startsWith(%s));
		const el = l && document.getElementById(l.htmlFor);
		if (!el || el.getAttribute('role') !== 'combobox') return false;
		el.focus();
		el.value = %s;
		el.dispatchEvent(new Event('input', { bubbles: true }));
		return true;
	})()`, scopeJS(scope), js(label), js(term)))
	opt := fmt.Sprintf(`[...document.querySelectorAll('[role=option]')].find((o) => o.getClientRects().length > 0 &&
		o.querySelector('.picker-label').textContent === %s)`, js(option))
	b.waitUntil(fmt.Sprintf("the match %q", option), "!!"+opt)
	b.do("pick "+option, chromedp.Click(chromedp.JSPath(opt), chromedp.NodeVisible))
	b.waitUntil(fmt.Sprintf("%q picked", option), `document.activeElement && document.activeElement.getAttribute('role') === 'combobox' &&
		document.activeElement.closest('.picker').querySelector('[role=listbox]').hidden`)
}

// needChromium returns the Chromium to drive, skipping the test without one
// unless CI is set, where a missing browser fails the test instead.
func needChromium(t *testing.T) string {
	t.Helper()
	bin := testkit.Chromium()
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium not installed, and CI is set: the console browser tests must run (`make chromium`)")
		}
		t.Skip("chromium not installed (run `make chromium` or scripts/chromium.sh); skipping the console browser test")
	}
	return bin
}
