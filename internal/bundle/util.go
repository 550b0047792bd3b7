package bundle

import (
	"sort"
	"time"
)

// now is the time of a write, to the microsecond as Postgres keeps it: an
// answer built from it is the one a later read (a keyed retry's) gives.
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
