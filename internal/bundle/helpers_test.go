package bundle_test

import "github.com/gocommerce/shop/internal/patch"

func setBool(b bool) patch.Field[bool] { return patch.Set(b) }
