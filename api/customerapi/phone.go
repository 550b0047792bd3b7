package customerapi

import "regexp"

// phonePattern is the storefront's rule for phone numbers (storeapi), so an
// administrator cannot store one the customer could not.
var phonePattern = regexp.MustCompile(`^\+?[0-9][0-9 ()-]{6,19}$`)
