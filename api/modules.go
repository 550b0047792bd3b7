package api

import (
	"github.com/gocommerce/shop/api/analyticsapi"
	"github.com/gocommerce/shop/api/catalogapi"
	"github.com/gocommerce/shop/api/customerapi"
	"github.com/gocommerce/shop/api/docsapi"
	"github.com/gocommerce/shop/api/gatewayapi"
	"github.com/gocommerce/shop/api/identityapi"
	"github.com/gocommerce/shop/api/inventoryapi"
	"github.com/gocommerce/shop/api/mount"
	"github.com/gocommerce/shop/api/orderapi"
	"github.com/gocommerce/shop/api/storeapi"
	"github.com/gocommerce/shop/api/systemapi"
	"github.com/gocommerce/shop/api/webhookapi"
)

// modules registers each domain's routes. A domain package exposes
// Register(*api.Mount)-shaped functions through this list only, so that api
// is the one place that knows every route.
var modules = []func(*mount.Mount){
	customerapi.Register,
	docsapi.Register,
	systemapi.Register,
	inventoryapi.Register,
	analyticsapi.Register,
	catalogapi.Register,
	gatewayapi.Register,
	webhookapi.Register,
	orderapi.Register,
	identityapi.Register,
	storeapi.Register,
}
