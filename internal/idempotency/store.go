// Package idempotency keeps the answers of writes sent with an
// Idempotency-Key (docs/DECISIONS.md "Idempotency-Key")
// in Postgres, table idempotency_keys, and carries the key in a request's
// context so that gateway calls made for it can derive their own key
// (GatewayKey).
//
// A key's life: Begin inserts a running row for the first request (INSERT
// ... ON CONFLICT DO NOTHING: exactly one of any number of concurrent
// requests wins); the winner runs and then Finish keeps its answer, or
// Abandon deletes the row (a 5xx or 429: a retry must run again). A repeat
// finds the row: done with the same request is a replay, another request is
// a mismatch, running is busy. A running row whose lease lapsed (its
// request crashed) is taken over by the next repeat, which runs again,
// told what the crashed run's change made if it recorded it (change.go).
package idempotency

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// TTL is how long an answer is kept (docs/DECISIONS.md "Idempotency-Key").
const TTL = 24 * time.Hour

// Lease is how long a running request holds its key. It is longer than any
// request runs: the 15 s request timeout, and the minute a refund may go on
// recording the gateway's answer after its client left. A repeat arriving
// after it lapsed runs again; that is safe because the work itself is
// guarded (a checkout reuses the cart's pending session, a refund finds the
// refund its key made, a fulfilment or a return request finds the change it
// recorded: RecordChange).
const Lease = time.Minute

// Scope names one key: the caller ("admin:<id>", "customer:<id>" or
// "session:<id>"), the method, the route pattern and the key.
type Scope struct {
	Caller, Method, Route, Key string
}

// Answer is a kept response.
type Answer struct {
	Status      int
	ContentType string
	Location    string
	// Body is nil when the answer was Withheld.
	Body []byte
	// Withheld answers carried credentials (Cache-Control: no-store) and
	// are not kept; a repeat is told the request was done.
	Withheld bool
}

// Outcome is what Begin found.
type Outcome int

// Outcomes of Begin.
const (
	// Started: the caller runs the request and must Finish or Abandon it.
	Started Outcome = iota + 1
	// Replay: the same request was done; Claim.Answer is its answer.
	Replay
	// Mismatch: the key was used with another request.
	Mismatch
	// Busy: the same key is running now.
	Busy
)

// Claim is the result of Begin.
type Claim struct {
	Outcome Outcome
	// Lease identifies the run that holds the key (Started).
	Lease  uuid.UUID
	Answer Answer
	// ChangeRef is what the crashed run whose lease this one took over made
	// (RecordChange); "" when it recorded nothing.
	ChangeRef string
}

// Store reads and writes idempotency_keys.
type Store struct {
	db    *gorm.DB
	lease time.Duration
	ttl   time.Duration
}

// New returns a store on db with the default Lease and TTL.
func New(db *gorm.DB) *Store { return &Store{db: db, lease: Lease, ttl: TTL} }

// WithLease returns a copy of s whose runs hold their key for lease (tests
// shorten it to show a crashed request's key being taken over).
func (s *Store) WithLease(lease time.Duration) *Store {
	c := *s
	c.lease = lease
	return &c
}

type row struct {
	RequestHash  []byte
	State        string
	LeaseID      uuid.UUID
	StatusCode   *int
	ContentType  *string
	Location     *string
	ResponseBody []byte
	Lapsed       bool
	Expired      bool
}

// Begin claims sc for a request whose fingerprint is hash (see
// Fingerprint). Errors are database failures.
func (s *Store) Begin(ctx context.Context, sc Scope, hash []byte) (Claim, error) {
	db := s.db.WithContext(ctx)
	// A few rounds at most: each one is lost only to a row deleted or
	// taken over between two statements.
	for range 5 {
		lease := uuid.New()
		res := db.Exec(`INSERT INTO idempotency_keys
			(caller, method, route, key, request_hash, lease_id, locked_until, expires_at)
			VALUES (?, ?, ?, ?, ?, ?, now() + make_interval(secs => ?), now() + make_interval(secs => ?))
			ON CONFLICT (caller, method, route, key) DO NOTHING`,
			sc.Caller, sc.Method, sc.Route, sc.Key, hash, lease, s.lease.Seconds(), s.ttl.Seconds())
		if res.Error != nil {
			return Claim{}, fmt.Errorf("idempotency.begin: %w", res.Error)
		}
		if res.RowsAffected == 1 {
			return Claim{Outcome: Started, Lease: lease}, nil
		}
		var r row
		q := db.Raw(`SELECT request_hash, state, lease_id, status_code, content_type, location, response_body,
				locked_until < now() AS lapsed, expires_at < now() AS expired
			FROM idempotency_keys WHERE caller = ? AND method = ? AND route = ? AND key = ?`,
			sc.Caller, sc.Method, sc.Route, sc.Key).Scan(&r)
		if q.Error != nil {
			return Claim{}, fmt.Errorf("idempotency.begin: %w", q.Error)
		}
		switch {
		case q.RowsAffected == 0:
			continue // deleted since the insert: try again
		case r.Expired:
			// Older than the TTL and not pruned yet: the key is free again.
			if err := db.Exec(`DELETE FROM idempotency_keys WHERE caller = ? AND method = ? AND route = ? AND key = ?
				AND expires_at < now()`, sc.Caller, sc.Method, sc.Route, sc.Key).Error; err != nil {
				return Claim{}, fmt.Errorf("idempotency.begin: %w", err)
			}
			continue
		case string(r.RequestHash) != string(hash):
			return Claim{Outcome: Mismatch}, nil
		case r.State == "done":
			return Claim{Outcome: Replay, Answer: r.answer()}, nil
		case !r.Lapsed:
			return Claim{Outcome: Busy}, nil
		}
		// A run that crashed: take its lease over, unless another repeat
		// did first.
		// A change still committing holds the row (RecordChange): this waits
		// for it and then reads what it made.
		var took []struct{ ChangeRef *string }
		res = db.Raw(`UPDATE idempotency_keys SET lease_id = ?, locked_until = now() + make_interval(secs => ?)
			WHERE caller = ? AND method = ? AND route = ? AND key = ? AND state = 'running' AND lease_id = ?
			RETURNING change_ref`,
			lease, s.lease.Seconds(), sc.Caller, sc.Method, sc.Route, sc.Key, r.LeaseID).Scan(&took)
		if res.Error != nil {
			return Claim{}, fmt.Errorf("idempotency.takeover: %w", res.Error)
		}
		if len(took) == 1 {
			c := Claim{Outcome: Started, Lease: lease}
			if took[0].ChangeRef != nil {
				c.ChangeRef = *took[0].ChangeRef
			}
			return c, nil
		}
	}
	return Claim{Outcome: Busy}, nil
}

func (r row) answer() Answer {
	a := Answer{Body: r.ResponseBody, Withheld: r.ResponseBody == nil}
	if r.StatusCode != nil {
		a.Status = *r.StatusCode
	}
	if r.ContentType != nil {
		a.ContentType = *r.ContentType
	}
	if r.Location != nil {
		a.Location = *r.Location
	}
	return a
}

// ErrLeaseLost is returned by Finish when another run took the key over
// (this one outlived its lease); the other run's answer stands.
var ErrLeaseLost = errors.New("idempotency: the key's lease was taken over")

// Finish keeps a's answer for the run holding lease.
func (s *Store) Finish(ctx context.Context, sc Scope, lease uuid.UUID, a Answer) error {
	var body any = a.Body
	if a.Withheld {
		body = nil
	} else if a.Body == nil {
		body = []byte{}
	}
	res := s.db.WithContext(ctx).Exec(`UPDATE idempotency_keys SET state = 'done', status_code = ?, content_type = ?,
			location = ?, response_body = ?
		WHERE caller = ? AND method = ? AND route = ? AND key = ? AND lease_id = ?`,
		a.Status, a.ContentType, a.Location, body, sc.Caller, sc.Method, sc.Route, sc.Key, lease)
	if res.Error != nil {
		return fmt.Errorf("idempotency.finish: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrLeaseLost
	}
	return nil
}

// Abandon deletes the key held by lease, so that a retry runs again. A key
// whose change was recorded (RecordChange) is kept, its lease lapsed at
// once: the retry takes it over and answers with the change instead of
// making it again.
func (s *Store) Abandon(ctx context.Context, sc Scope, lease uuid.UUID) error {
	err := s.db.WithContext(ctx).Exec(`WITH dropped AS (DELETE FROM idempotency_keys
			WHERE caller = ? AND method = ? AND route = ? AND key = ? AND lease_id = ? AND change_ref IS NULL)
		UPDATE idempotency_keys SET locked_until = now()
			WHERE caller = ? AND method = ? AND route = ? AND key = ? AND lease_id = ? AND change_ref IS NOT NULL`,
		sc.Caller, sc.Method, sc.Route, sc.Key, lease, sc.Caller, sc.Method, sc.Route, sc.Key, lease).Error
	if err != nil {
		return fmt.Errorf("idempotency.abandon: %w", err)
	}
	return nil
}
