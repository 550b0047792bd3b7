package identity

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// Stamps mark every change to an administrator's account or sessions, so
// that an API process can keep the sessions it has checked and still refuse
// a revoked one on the next request (docs/DECISIONS.md "Admin session
// checks").
//
// Each admin has a stamp in Redis, a random value replaced after every
// committed change that can end a session or change what Authenticate
// returns: logout, revocation, a reused refresh token, deactivation, a role
// or name change. A process remembers a session it found valid in Postgres
// together with the stamp it read before that query; a later request uses
// the remembered session only while the stamp is still the same. A stamp
// that is missing (Redis restarted or evicted it) is set afresh, which
// matches nothing remembered; a Redis that does not answer means Postgres
// is asked, as without stamps.
type Stamps struct {
	rdb *redis.Client
	log *slog.Logger
	// checked are the sessions this process found valid, by session id.
	mu      sync.Mutex
	checked map[uuid.UUID]checkedSession
}

// NewStamps returns the stamps kept in rdb; log receives failed writes.
func NewStamps(rdb *redis.Client, log *slog.Logger) *Stamps {
	return &Stamps{rdb: rdb, log: log}
}

// stampPrefix namespaces the stamps; cache clearing (CACHE_PREFIX) never
// reaches them, and losing them costs only a Postgres query each.
const stampPrefix = "shop:admin-stamp:"

// stampTTL lets the stamps of admins who stopped signing in go; an expired
// stamp is set afresh like a lost one.
const stampTTL = 7 * 24 * time.Hour

// Changed replaces the stamp of adminID: every process checks that admin's
// sessions in Postgres again. Call it after the change has committed. A
// failure is logged, not returned: the change is made, and remembered
// sessions are checked in Postgres again after sessionRecheck anyway.
func (s *Stamps) Changed(ctx context.Context, adminID uuid.UUID) {
	if s == nil {
		return
	}
	s.forget(adminID)
	var err error
	for range 2 {
		if err = s.rdb.Set(ctx, stampPrefix+adminID.String(), newStamp(), stampTTL).Err(); err == nil {
			return
		}
	}
	if s.log != nil {
		s.log.ErrorContext(ctx, "admin stamp not replaced; other API processes may accept this admin's ended sessions until they check again",
			"admin_id", adminID, "within", sessionRecheck, "err", err)
	}
}

// current returns adminID's stamp, or "" when a remembered session must
// not be used and a newly checked one not remembered (Redis unreachable,
// or the stamp was lost and another request is setting it).
func (s *Stamps) current(ctx context.Context, adminID uuid.UUID) string {
	if s == nil {
		return ""
	}
	key := stampPrefix + adminID.String()
	v, err := s.rdb.Get(ctx, key).Result()
	switch {
	case err == nil:
		return v
	case errors.Is(err, redis.Nil):
		// Set it only where still missing: a change's stamp written
		// meanwhile must not be overwritten by this older read.
		fresh := newStamp()
		if ok, err := s.rdb.SetNX(ctx, key, fresh, stampTTL).Result(); err == nil && ok {
			return fresh
		}
	}
	return ""
}

func newStamp() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// sessionRecheck bounds how long a remembered session is used before
// Postgres is asked again whatever the stamp says: the limit for a change
// made behind the service's back (SQL by hand) or whose stamp could not be
// written.
const sessionRecheck = 30 * time.Second

// maxRemembered bounds the remembered sessions of one process; past it
// they are all forgotten (each costs one Postgres query to remember again).
const maxRemembered = 10_000

// checkedSession is a session found valid in Postgres.
type checkedSession struct {
	principal  Principal
	expiresAt  time.Time
	lastUsedAt time.Time
	stamp      string
	checkedAt  time.Time
}

// remembered returns session sid of adminID if this process found it valid
// under stamp, it is still unexpired at now and was checked within
// sessionRecheck.
func (s *Stamps) remembered(sid, adminID uuid.UUID, stamp string, now time.Time) (checkedSession, bool) {
	if s == nil || stamp == "" {
		return checkedSession{}, false
	}
	s.mu.Lock()
	e, ok := s.checked[sid]
	s.mu.Unlock()
	if !ok || e.stamp != stamp || e.principal.AdminID != adminID ||
		!e.expiresAt.After(now) || now.Sub(e.checkedAt) >= sessionRecheck {
		return checkedSession{}, false
	}
	return e, true
}

// remember keeps session sid, just found valid in Postgres (only with a
// stamp).
func (s *Stamps) remember(sid uuid.UUID, e checkedSession) {
	if s == nil || e.stamp == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.checked == nil || len(s.checked) >= maxRemembered {
		s.checked = make(map[uuid.UUID]checkedSession)
	}
	s.checked[sid] = e
}

// touched records that session sid's last_used_at was written at t.
func (s *Stamps) touched(sid uuid.UUID, t time.Time) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.checked[sid]; ok {
		e.lastUsedAt = t
		s.checked[sid] = e
	}
}

// forget drops the remembered sessions of adminID in this process (the
// stamp tells the others).
func (s *Stamps) forget(adminID uuid.UUID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for sid, e := range s.checked {
		if e.principal.AdminID == adminID {
			delete(s.checked, sid)
		}
	}
}
