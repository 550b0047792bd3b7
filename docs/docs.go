// Package docs embeds the published API document, docs/openapi.yaml, so
// that the binary serves exactly the file in the repository and tests
// validate against it.
package docs

import _ "embed"

// OpenAPI is docs/openapi.yaml: the OpenAPI 3.0 description of every HTTP
// route the service registers.
//
//go:embed openapi.yaml
var OpenAPI []byte
