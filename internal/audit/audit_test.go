package audit

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestScrubRemovesSecretsAtAnyDepth(t *testing.T) {
	in := map[string]any{
		"email":    "a@example.com",
		"password": "hunter2",
		"nested": map[string]any{
			"refresh_token": "r", "newPassword": "p", "keep": 1,
			"list": []any{map[string]any{"secret": "s", "code": "123456", "sku": "X"}},
		},
		"backupCodes": []any{"a", "b"},
		"X-Api-Key":   "k",
	}
	out := Scrub(in)
	b, _ := json.Marshal(out)
	for _, bad := range []string{"hunter2", `"r"`, `"p"`, `"s"`, "123456", `"a"`, `"k"`} {
		if strings.Contains(string(b), bad) {
			t.Fatalf("scrubbed metadata still contains %s: %s", bad, b)
		}
	}
	for _, good := range []string{"a@example.com", `"keep":1`, `"sku":"X"`} {
		if !strings.Contains(string(b), good) {
			t.Fatalf("scrub removed %s: %s", good, b)
		}
	}
	if _, ok := in["password"]; !ok {
		t.Fatal("Scrub modified its input")
	}
}

func TestCleanMakesHeadersStorable(t *testing.T) {
	got := clean("curl/8\x00\xff"+strings.Repeat("a", 600), 512)
	if strings.ContainsRune(got, 0) || !utf8.ValidString(got) || len(got) > 512 {
		t.Fatalf("clean left %q", got[:20])
	}
}
