package testkit

import "github.com/gocommerce/shop/internal/password"

// Test binaries hash passwords with Argon2id at a cost a test can afford:
// every admin and customer a test makes is hashed, and most log in, so at
// the production baseline (19 MiB, two passes) hashing was a large share
// of the suite's CPU, several times that under the race detector. The
// hashes are still Argon2id, verified and upgraded by the same code; the
// production parameters are tested by internal/password, which does not
// import testkit, and by the fault suite's real processes.
func init() {
	password.Default = password.Params{MemoryKiB: 256, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
}
