// Package password hashes passwords with Argon2id and verifies Argon2id and
// legacy bcrypt hashes, telling the caller when a hash should be upgraded.
package password

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
	"golang.org/x/crypto/bcrypt"
)

// Params are Argon2id cost parameters.
type Params struct {
	MemoryKiB uint32
	Time      uint32
	Threads   uint8
	SaltLen   int
	KeyLen    uint32
}

// Default is the OWASP baseline: m=19456 KiB, t=2, p=1.
var Default = Params{MemoryKiB: 19456, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}

// MaxLength bounds the password length accepted anywhere, so that hashing a
// huge body cannot be used to burn CPU.
const MaxLength = 256

// ErrMismatch is returned by Verify for a wrong password.
var ErrMismatch = errors.New("password: mismatch")

// Hash returns the PHC-encoded Argon2id hash of pw:
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>.
func Hash(pw string) (string, error) {
	return hashWith(pw, Default)
}

func hashWith(pw string, p Params) (string, error) {
	salt := make([]byte, p.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("password.hash: %w", err)
	}
	key := argon2.IDKey([]byte(pw), salt, p.Time, p.MemoryKiB, p.Threads, p.KeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.MemoryKiB, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// Verify checks pw against an Argon2id or bcrypt hash. needsRehash is true
// when the password matched a bcrypt hash or weaker Argon2 parameters than
// Default: the caller should store Hash(pw) now that it knows pw.
func Verify(pw, encoded string) (needsRehash bool, err error) {
	switch {
	case strings.HasPrefix(encoded, "$argon2id$"):
		p, salt, key, err := decode(encoded)
		if err != nil {
			return false, err
		}
		got := argon2.IDKey([]byte(pw), salt, p.Time, p.MemoryKiB, p.Threads, uint32(len(key)))
		if subtle.ConstantTimeCompare(got, key) != 1 {
			return false, ErrMismatch
		}
		weaker := p.MemoryKiB < Default.MemoryKiB || p.Time < Default.Time || p.Threads < Default.Threads
		return weaker, nil
	case strings.HasPrefix(encoded, "$2a$"), strings.HasPrefix(encoded, "$2b$"), strings.HasPrefix(encoded, "$2y$"):
		if err := bcrypt.CompareHashAndPassword([]byte(encoded), []byte(pw)); err != nil {
			return false, ErrMismatch
		}
		return true, nil
	}
	return false, errors.New("password: unknown hash format")
}

// DummyVerify spends the time of one Argon2id verification. Login calls it
// for unknown accounts so that response time does not reveal which emails exist.
func DummyVerify(pw string) {
	_, _ = Verify(pw, dummyHash)
}

var dummyHash, _ = Hash("not-a-real-password")

func decode(encoded string) (Params, []byte, []byte, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 {
		return Params{}, nil, nil, errors.New("password: malformed argon2id hash")
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return Params{}, nil, nil, errors.New("password: unsupported argon2 version")
	}
	var p Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.MemoryKiB, &p.Time, &p.Threads); err != nil {
		return Params{}, nil, nil, errors.New("password: malformed argon2id parameters")
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return Params{}, nil, nil, errors.New("password: malformed salt")
	}
	key, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(key) == 0 {
		return Params{}, nil, nil, errors.New("password: malformed key")
	}
	return p, salt, key, nil
}
