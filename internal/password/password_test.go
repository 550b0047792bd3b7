package password

import (
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

func TestHashAndVerify(t *testing.T) {
	h, err := Hash("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("unexpected encoding %s", h)
	}
	if rehash, err := Verify("correct horse", h); err != nil || rehash {
		t.Fatalf("verify: rehash=%v err=%v", rehash, err)
	}
	if _, err := Verify("wrong", h); err != ErrMismatch {
		t.Fatalf("want mismatch, got %v", err)
	}
}

func TestBcryptNeedsRehash(t *testing.T) {
	b, _ := bcrypt.GenerateFromPassword([]byte("legacy"), bcrypt.MinCost)
	rehash, err := Verify("legacy", string(b))
	if err != nil || !rehash {
		t.Fatalf("bcrypt verify: rehash=%v err=%v", rehash, err)
	}
	if _, err := Verify("nope", string(b)); err != ErrMismatch {
		t.Fatalf("want mismatch, got %v", err)
	}
}

func TestWeakArgonNeedsRehash(t *testing.T) {
	h, _ := hashWith("pw", Params{MemoryKiB: 8192, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32})
	if rehash, err := Verify("pw", h); err != nil || !rehash {
		t.Fatalf("weak argon: rehash=%v err=%v", rehash, err)
	}
}
