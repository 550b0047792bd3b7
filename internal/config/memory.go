package config

// The api's memory budget (docs/DECISIONS.md "The api's memory budget",
// docs/OPERATIONS.md "Memory"): API_MEMORY_LIMIT_MIB is what one api process
// may hold resident, its container's limit. The process gives the Go
// runtime a soft limit below it (GoMemoryLimit) and bounds the storefront's
// page memo, its one cache that grows with the catalog, within it
// (PageMemoBytes), so what the api settles at is chosen here rather than
// left to the catalog's size and the collector's doubling of the live heap.

const mib = 1 << 20

// unmanagedMiB is what an api process holds resident that the Go runtime's
// limit does not count: the binary's code and data paged in, thread
// stacks of the C library (measured in docs/OPERATIONS.md "Memory": RSS
// less the runtime's own total).
const unmanagedMiB = 28

// memoShare is the page memo's part of the budget: a third, so that with
// the memo full the live heap stays near half the runtime's limit and the
// collector runs about as often as GOGC=100 would have it.
const memoShare = 3

// MinAPIMemoryMiB is the smallest budget accepted: below it the memo could
// not hold one page of each of a few thousand products.
const MinAPIMemoryMiB = 96

// GoMemoryLimit is the soft limit the api sets for the Go runtime
// (debug.SetMemoryLimit) in bytes; 0 when API_MEMORY_LIMIT_MIB is 0 (the
// runtime's default: no limit).
func (c *Config) GoMemoryLimit() int64 {
	if c.APIMemoryLimitMiB == 0 {
		return 0
	}
	return int64(c.APIMemoryLimitMiB-unmanagedMiB) * mib
}

// PageMemoBytes bounds the storefront's in-process page memo: a third of
// API_MEMORY_LIMIT_MIB, or 64 MiB when it is 0.
func (c *Config) PageMemoBytes() int {
	if c.APIMemoryLimitMiB == 0 {
		return 64 * mib
	}
	return c.APIMemoryLimitMiB * mib / memoShare
}
