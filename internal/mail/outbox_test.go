package mail_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/gocommerce/shop/internal/mail"
	"github.com/gocommerce/shop/internal/testkit"
	"gorm.io/gorm"
)

// recordingSender counts what it sends and refuses the addresses in fail.
type recordingSender struct {
	mu   sync.Mutex
	sent map[string]int
	fail map[string]bool
}

func (s *recordingSender) Send(_ context.Context, m mail.Message) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail[m.To] {
		return errors.New("mailbox unavailable")
	}
	s.sent[m.To]++
	return nil
}

// mustEmail writes an unsent customer email of kind about ref.
func mustEmail(t *testing.T, db *gorm.DB, kind, ref string) {
	t.Helper()
	if err := db.Exec(`INSERT INTO customer_emails (kind, ref) VALUES (?, ?)`, kind, ref).Error; err != nil {
		t.Fatal(err)
	}
}

// renderRef addresses each email to its ref, and fails for refs starting "bad".
func renderRef(tx *gorm.DB, id string) (mail.Message, error) {
	var ref string
	if err := tx.Raw(`SELECT ref FROM customer_emails WHERE id = ?`, id).Scan(&ref).Error; err != nil {
		return mail.Message{}, err
	}
	if strings.HasPrefix(ref, "bad") {
		return mail.Message{}, errors.New("cannot render " + ref)
	}
	return mail.Message{To: ref, Subject: "test", Body: "test"}, nil
}

func unsent(t *testing.T, db *gorm.DB) []string {
	t.Helper()
	var refs []string
	if err := db.Raw(`SELECT ref FROM customer_emails WHERE sent_at IS NULL ORDER BY ref`).Scan(&refs).Error; err != nil {
		t.Fatal(err)
	}
	return refs
}

// Runs racing over the same rows send each email once; rows of other kinds
// are left to their own outbox.
func TestOutboxSendsEachEmailOnceUnderRace(t *testing.T) {
	db, _ := testkit.MustDB(t)
	for _, ref := range []string{"a", "b", "c", "d", "e", "f"} {
		mustEmail(t, db, "test_kind", ref)
	}
	mustEmail(t, db, "other_kind", "z")
	sender := &recordingSender{sent: map[string]int{}}
	outbox := mail.NewOutbox(db, sender, "test.emails", mail.CustomerEmails, []string{"test_kind"}, renderRef)

	var wg sync.WaitGroup
	total := make(chan int, 4)
	for range 4 {
		wg.Go(func() {
			n, err := outbox.SendPending(context.Background())
			if err != nil {
				t.Error(err)
			}
			total <- n
		})
	}
	wg.Wait()
	close(total)
	sum := 0
	for n := range total {
		sum += n
	}
	if sum != 6 {
		t.Fatalf("runs reported %d sent, want 6", sum)
	}
	for _, ref := range []string{"a", "b", "c", "d", "e", "f"} {
		if sender.sent[ref] != 1 {
			t.Errorf("%s sent %d times", ref, sender.sent[ref])
		}
	}
	if got := unsent(t, db); len(got) != 1 || got[0] != "z" {
		t.Fatalf("unsent after the runs: %v (want only the other kind's)", got)
	}
	if n, err := outbox.SendPending(context.Background()); n != 0 || err != nil {
		t.Fatalf("a run with nothing pending: %d, %v", n, err)
	}
}

// An email that cannot be rendered or sent stays unsent and is reported,
// without holding up the others; the next run sends it once it can go.
func TestOutboxFailureHoldsOnlyItsEmail(t *testing.T) {
	db, _ := testkit.MustDB(t)
	for _, ref := range []string{"bad-render", "refused", "ok"} {
		mustEmail(t, db, "test_kind", ref)
	}
	sender := &recordingSender{sent: map[string]int{}, fail: map[string]bool{"refused": true}}
	outbox := mail.NewOutbox(db, sender, "test.emails", mail.CustomerEmails, []string{"test_kind"}, renderRef)

	n, err := outbox.SendPending(context.Background())
	if n != 1 || err == nil || !strings.Contains(err.Error(), "cannot render") || !strings.Contains(err.Error(), "mailbox unavailable") {
		t.Fatalf("first run: %d sent, err %v", n, err)
	}
	if got := unsent(t, db); strings.Join(got, ",") != "bad-render,refused" {
		t.Fatalf("unsent after the first run: %v", got)
	}
	sender.mu.Lock()
	sender.fail = nil
	sender.mu.Unlock()
	n, err = outbox.SendPending(context.Background())
	if n != 1 || err == nil {
		t.Fatalf("second run: %d sent, err %v (want the refused one sent, the unrenderable one reported)", n, err)
	}
	if sender.sent["ok"] != 1 || sender.sent["refused"] != 1 {
		t.Fatalf("sent: %v", sender.sent)
	}
}
