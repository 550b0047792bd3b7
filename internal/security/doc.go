// Package security holds the OWASP API Top 10 tests of the service: object-
// and property-level authorization, broken authentication, unrestricted
// resource consumption, injection and server-side request forgery. Each case
// asserts the exact status and that the database did not change.
package security
