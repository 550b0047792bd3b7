package docs_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/outbox"
)

// root is the repository, seen from this package's directory.
const root = ".."

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section returns the text of README's "## title" section, up to the next
// "## " heading.
func section(t *testing.T, doc, title string) string {
	t.Helper()
	start := strings.Index(doc, "\n## "+title+"\n")
	if start < 0 {
		t.Fatalf("no section %q", title)
	}
	rest := doc[start+1:]
	if end := strings.Index(rest[3:], "\n## "); end >= 0 {
		rest = rest[:end+3]
	}
	return rest
}

var shellBlock = regexp.MustCompile("(?s)```sh\n(.*?)```")

// The README's walkthrough is scripts/demo.sh, block for block: the script
// that `make test` runs is the text a reader copies.
func TestWalkthroughIsTheDemoScript(t *testing.T) {
	var readme []string
	for _, m := range shellBlock.FindAllStringSubmatch(section(t, read(t, "README.md"), "Walkthrough"), -1) {
		readme = append(readme, strings.TrimSpace(m[1]))
	}
	script := read(t, "scripts/demo.sh")
	const marker = "# --- walkthrough ---\n"
	i := strings.Index(script, marker)
	if i < 0 {
		t.Fatalf("scripts/demo.sh has no %q line", strings.TrimSpace(marker))
	}
	var blocks []string
	for _, b := range strings.Split(script[i+len(marker):], "\n\n") {
		if b = strings.TrimSpace(b); b != "" {
			blocks = append(blocks, b)
		}
	}
	if len(blocks) == 0 {
		t.Fatal("scripts/demo.sh has no walkthrough block")
	}
	for n := range max(len(readme), len(blocks)) {
		var r, s string
		if n < len(readme) {
			r = readme[n]
		}
		if n < len(blocks) {
			s = blocks[n]
		}
		if r != s {
			t.Errorf("walkthrough block %d differs:\nREADME.md:\n%s\n\nscripts/demo.sh:\n%s", n+1, r, s)
		}
	}
}

// Every shell block of the README runs when pasted in order into the shell
// of the walkthrough: it reads only variables set by then, by the
// walkthrough (which comes first), by an earlier block (the overview's
// examples follow on from each other: the cart, then its checkout) or by
// the block itself, and SHOP, the server's address (scripts/demo.sh).
func TestReadmeShellBlocksUseOnlySetVariables(t *testing.T) {
	readme := read(t, "README.md")
	set := map[string]bool{"SHOP": true}
	for n, m := range shellBlock.FindAllStringSubmatchIndex(readme, -1) {
		block := readme[m[2]:m[3]]
		line := strings.Count(readme[:m[2]], "\n") + 1
		for _, v := range shellVars(block) {
			switch {
			case v.set:
				set[v.name] = true
			case !set[v.name]:
				t.Errorf("README.md:%d: shell block %d reads $%s, which neither the walkthrough, an earlier block nor the block sets",
					line, n+1, v.name)
			}
		}
	}
}

// shellVar is a variable a shell block reads ($NAME, ${NAME...}) or sets
// (NAME=... where a command starts, and for NAME in).
type shellVar struct {
	name string
	set  bool
}

// shellVars lists the variables src reads and sets, in order. It follows
// the shell's quoting far enough for the README's blocks: nothing inside
// single quotes is a variable (jq's $email), double quotes and $( ) nest,
// a backslash escapes the next character (a line continuation too), and a
// comment runs to the end of its line.
func shellVars(src string) []shellVar {
	type frame struct {
		quoted bool // inside "..."
		parens int  // open ( of a subshell or $( ) in this frame
	}
	var out []shellVar
	stack := []frame{{}}
	atCommand := true // where a word may be an assignment
	assignDepth := 0  // stack depth of an assignment's value being read, or 0
	// name is the end of the variable name starting at i (i itself: none).
	name := func(i int) int {
		j := i
		for j < len(src) && (src[j] == '_' || 'a' <= src[j]|0x20 && src[j]|0x20 <= 'z' || j > i && '0' <= src[j] && src[j] <= '9') {
			j++
		}
		return j
	}
	for i := 0; i < len(src); {
		top := &stack[len(stack)-1]
		c := src[i]
		if c == '\\' {
			i += 2
			continue
		}
		if c == '$' && i+1 < len(src) {
			switch next := src[i+1]; {
			case next == '(':
				stack = append(stack, frame{})
				atCommand, i = true, i+2
			case next == '{':
				end := name(i + 2)
				out = append(out, shellVar{name: src[i+2 : end]})
				if close := strings.IndexByte(src[end:], '}'); close >= 0 {
					end += close + 1
				}
				i = end
			default:
				end := name(i + 1)
				if end > i+1 {
					out = append(out, shellVar{name: src[i+1 : end]})
				}
				i = max(end, i+1)
			}
			continue
		}
		if top.quoted {
			if c == '"' {
				stack = stack[:len(stack)-1]
			}
			i++
			continue
		}
		switch {
		case c == '\'':
			if end := strings.IndexByte(src[i+1:], '\''); end >= 0 {
				i += end + 2
			} else {
				i = len(src)
			}
			atCommand = false
			continue
		case c == '"':
			stack = append(stack, frame{quoted: true})
			atCommand = false
		case c == '#' && (i == 0 || strings.ContainsRune(" \t\n", rune(src[i-1]))):
			if end := strings.IndexByte(src[i:], '\n'); end >= 0 {
				i += end
			} else {
				i = len(src)
			}
			continue
		case c == '(':
			top.parens++
			atCommand = true
		case c == ')':
			if top.parens > 0 {
				top.parens--
			} else if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case c == '\n' || c == ';' || c == '|' || c == '&':
			atCommand, assignDepth = true, 0
		case c == ' ' || c == '\t':
			if assignDepth == len(stack) {
				atCommand, assignDepth = true, 0
			}
		case atCommand && name(i) > i:
			end := name(i)
			word := src[i:end]
			switch {
			case end < len(src) && src[end] == '=':
				out = append(out, shellVar{name: word, set: true})
				assignDepth, atCommand = len(stack), false
				i = end + 1
				continue
			case word == "for":
				j := end
				for j < len(src) && src[j] == ' ' {
					j++
				}
				if k := name(j); k > j {
					out = append(out, shellVar{name: src[j:k], set: true})
					end = k
				}
				atCommand = false
			case word == "do" || word == "then" || word == "else" || word == "!":
			default:
				atCommand = false
			}
			i = end
			continue
		default:
			atCommand = false
		}
		i++
	}
	return out
}

// The variable scanner reads what the shell would expand, and only that.
func TestShellVars(t *testing.T) {
	for src, want := range map[string]string{
		`A=1 B="$A" cmd "$C"`:                                       "A= B= A C",
		`X=$(jq -n --arg email "a-$RUN" '{$email}')`:                "X= RUN",
		`curl "$SHOP/x/${ID:?not set: run the step before}" # $NOT`: "SHOP ID",
		"for _ in $(seq 3); do\n  Y=$(f \"$Z\") && break\ndone":     "_= Y= Z",
		`curl -F file=@photo.jpg -F alt='Front $view' -F v="$V"`:    "V",
		"cmd \\\n  --x \"$(echo 'it''s' \"$Q\")\"":                  "Q",
	} {
		var got []string
		for _, v := range shellVars(src) {
			if v.set {
				got = append(got, v.name+"=")
			} else {
				got = append(got, v.name)
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("shellVars(%q) = %q, want %q", src, strings.Join(got, " "), want)
		}
	}
}

// Every event a webhook can subscribe to is named where a reader looks for
// it: the README's list and a section of docs/WEBHOOKS.md.
func TestDocsNameEveryOutboundEvent(t *testing.T) {
	readme := read(t, "README.md")
	i := strings.Index(readme, "**Outbound webhooks.**")
	if i < 0 {
		t.Fatal("README.md has no **Outbound webhooks.** paragraph")
	}
	paragraph, _, _ := strings.Cut(readme[i:], "\n\n")
	webhooks := read(t, "docs/WEBHOOKS.md")
	for _, ev := range outbox.EventTypes {
		if !strings.Contains(paragraph, "`"+ev+"`") {
			t.Errorf("README.md's outbound webhooks paragraph does not list %s", ev)
		}
		if !strings.Contains(webhooks, "### `"+ev+"`") {
			t.Errorf("docs/WEBHOOKS.md has no section for %s", ev)
		}
	}
}

// danglingReference matches pointers a reader of the repository cannot
// follow: to issues, to the planning documents the code was written from
// ("the interface's ...", "as the interface asks"), or to their numbered
// sections ("section 6", "§19"; an RFC's sections are fine). Say the rule
// itself, or point at a docs/DECISIONS.md section by its title.
var danglingReference = regexp.MustCompile(`(?i)\bissues? #?\d+|\bAPI-DECISIONS\b|\binterface (document|section)\b|` +
	`\binterface['’]s\b|\bthe interface (asks|says|requires|wants|specifies)\b|` +
	`(RFC \d+ )?(\bsection |§ ?)\d+|\bskipped until\b|\bstop \d+\b|\bphase [A-Z]\b|\bitem \d+\b`)

// sweptExtensions are the kinds of file holding the documents and sources a reader may open.
var sweptExtensions = []string{".md", ".go", ".js", ".sh", ".yaml", ".yml", ".sql", ".html", ".css", ".tpl", ".txt"}

func TestDocsAndCommentsHaveNoDanglingReferences(t *testing.T) {
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch {
			case rel != "." && strings.HasPrefix(d.Name(), "."), d.Name() == "bin", d.Name() == "testdata", d.Name() == "node_modules",
				rel == filepath.Join("api", "docsapi", "assets"):
				return fs.SkipDir
			}
			return nil
		}
		if rel == filepath.Join("docs", "readme_test.go") || (!slices.Contains(sweptExtensions, filepath.Ext(path)) && d.Name() != "Makefile") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for n, line := range strings.Split(string(b), "\n") {
			for _, m := range danglingReference.FindAllString(line, -1) {
				if !strings.HasPrefix(m, "RFC") {
					found = append(found, rel+":"+strconv.Itoa(n+1)+": "+m)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("references a reader cannot follow (say the rule, or name a docs/DECISIONS.md section):\n  %s", strings.Join(found, "\n  "))
	}
}

// The pattern catches each kind of reference it names, and lets an RFC's
// sections and the plain word "interface" through.
func TestDanglingReferencePattern(t *testing.T) {
	for _, line := range []string{
		"skipped until issue 15", "see API-DECISIONS 5", "interface section 6", "(beyond §19)", "as in § 4",
		"stricter than the interface's \"committed\"", "as the interface asks", "item 3 of the list",
	} {
		if !danglingReference.MatchString(line) {
			t.Errorf("not caught: %q", line)
		}
	}
	for _, line := range []string{
		"as RFC 6238 §5.2 recommends", "(RFC 6819 §5.2.2.3)", "What counts as the interface for the version number",
		"declare the interfaces they consume",
	} {
		for _, m := range danglingReference.FindAllString(line, -1) {
			if !strings.HasPrefix(m, "RFC") {
				t.Errorf("caught %q in %q", m, line)
			}
		}
	}
}
