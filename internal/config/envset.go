package config

import "os"

// envSet reports whether a variable is present in the environment, even empty.
// It is used only by Load, so configuration is still read in one place.
func envSet(name string) bool {
	_, ok := os.LookupEnv(name)
	return ok
}
