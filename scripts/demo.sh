#!/usr/bin/env bash
# The README's walkthrough as one script. It drives a running server as a
# person would: an administrator adds a product with stock, a guest fills a
# cart, picks a shipping method and checks out, the gateway simulator pays,
# the order appears, another guest orders cash on delivery and staff record
# the cash, is fulfilled and delivered, the customer returns a unit
# and the shop refunds it.
#
# Run it from the repository root against `make run`: `make demo`. `make
# test` runs it against a fresh server of its own (cmd/shop/demo_test.go).
# SHOP is the server's address (default http://localhost:8080); bin/shop and
# DATABASE_URL must be those of that server.
#
# Every block after the "walkthrough" line is also in README.md
# ("Walkthrough"), in the same order: docs/readme_test.go checks that they
# are the same text. Blocks are separated by one empty line. To add a step,
# write its block where it belongs, carrying what later steps need in a
# shell variable (TOKEN, ORDER_ID ...), and put the same block in the README.
set -euo pipefail
for tool in curl jq; do
  command -v "$tool" >/dev/null || { echo "demo: $tool is needed (apt-get install $tool)" >&2; exit 1; }
done
[ -x bin/shop ] || { echo "demo: run it from the repository root, after make build" >&2; exit 1; }

# --- walkthrough ---

SHOP=${SHOP:-http://localhost:8080}
RUN=$(date +%s)
curl -sS --fail-with-body "$SHOP/readyz" | jq -c .

ADMIN_EMAIL="owner-$RUN@example.com" ADMIN_PASSWORD="demo-password-$RUN"
bin/shop admin create --email "$ADMIN_EMAIL" --password "$ADMIN_PASSWORD" --role super_admin
TOKEN=$(curl -sS --fail-with-body "$SHOP/api/v1/admin/auth/login" -H 'Content-Type: application/json' \
  -d "$(jq -n --arg email "$ADMIN_EMAIL" --arg password "$ADMIN_PASSWORD" '{$email, $password}')" | jq -r .access_token)

PRODUCT_ID=$(curl -sS --fail-with-body "$SHOP/api/v1/admin/products" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d '{"title":"Café Crew Tee","price":499.5,"gstRate":5,"hsnCode":"6109","status":"active"}' | jq -r .id)
VARIANT_ID=$(curl -sS --fail-with-body "$SHOP/api/v1/admin/products/$PRODUCT_ID/variants" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' -d "$(jq -n --arg sku "CAFE-TEE-M-$RUN" '{$sku, size: "M", color: "Black", inventory: 20}')" | jq -r .id)
curl -sS --fail-with-body -X PATCH "$SHOP/api/v1/admin/variants/$VARIANT_ID/inventory" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' -d '{"operation":"subtract","inventory":3}' | jq -c '{sku, inventory, available}'
curl -sS --fail-with-body "$SHOP/products/$PRODUCT_ID" | jq -c '{title, price, variants: [.variants[] | {sku, available}]}'

COLLECTION_ID=$(curl -sS --fail-with-body "$SHOP/api/v1/admin/collections" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' -d "$(jq -n --arg slug "new-in-$RUN" '{name: "New in", $slug}')" | jq -r .id)
curl -sS --fail-with-body -X POST "$SHOP/api/v1/admin/collections/$COLLECTION_ID/products/$PRODUCT_ID" -H "Authorization: Bearer $TOKEN"
curl -sS --fail-with-body "$SHOP/categories" | jq -c '[.data[] | {name, children: [.children[].name]}] | .[:2]'
curl -sS --fail-with-body "$SHOP/collections" | jq -c '.data[0] | {name, slug}'
curl -sS --fail-with-body "$SHOP/collections/new-in-$RUN" | jq -c '{collection: .collection.name, products: [.data[].title]}'

SESSION="guest-$RUN"
curl -sS --fail-with-body "$SHOP/cart/items" -H "X-Session-Id: $SESSION" -H 'Content-Type: application/json' \
  -d "$(jq -n --arg variantId "$VARIANT_ID" '{$variantId, quantity: 2}')" | jq -c '{items: [.items[] | {sku, quantity, lineTotal}], total}'
curl -sS --fail-with-body "$SHOP/cart/discount" -H "X-Session-Id: $SESSION" -H 'Content-Type: application/json' \
  -d '{"code":"WELCOME10"}' | jq -c '{subtotal, discountTotal, total, discountCode}'

OPTIONS=$(curl -sS --fail-with-body "$SHOP/cart/shipping-options?state=Karnataka" -H "X-Session-Id: $SESSION")
echo "$OPTIONS" | jq -c '.data[] | {name, carrier, price, estimatedDays}'
SHIPPING_METHOD_ID=$(echo "$OPTIONS" | jq -r '.data[] | select(.name == "Express") | .id')

CHECKOUT=$(curl -sS --fail-with-body "$SHOP/orders" -H "X-Session-Id: $SESSION" -H 'Content-Type: application/json' \
  -d "$(jq -n --arg email "asha-$RUN@example.com" --arg shippingMethodId "$SHIPPING_METHOD_ID" '{$email, name: "Asha",
    phone: "+91 98450 00000", password: "asha-demo-password", $shippingMethodId,
    address: {street: "12 MG Road", city: "Bengaluru", state: "Karnataka", pincode: "560001", country: "India"}}')")
echo "$CHECKOUT" | jq -c .paymentIntent
INTENT_ID=$(echo "$CHECKOUT" | jq -r .paymentIntent.paymentIntentId)

APP_ENV=development bin/shop gateway simulate payment.captured --order-id "$INTENT_ID" --url "$SHOP/storefront/payments/gateway/webhook"

CUSTOMER_TOKEN=$(curl -sS --fail-with-body "$SHOP/customers/login" -H 'Content-Type: application/json' \
  -d "$(jq -n --arg email "asha-$RUN@example.com" '{$email, password: "asha-demo-password"}')" | jq -r .access_token)
for _ in $(seq 30); do
  ORDER_ID=$(curl -sS --fail-with-body "$SHOP/orders" -H "Authorization: Bearer $CUSTOMER_TOKEN" | jq -r '.data[0].id // empty')
  [ -n "$ORDER_ID" ] && break
  sleep 1
done
curl -sS --fail-with-body "$SHOP/orders/${ORDER_ID:?no order 30 s after the payment: is the worker running?}" \
  -H "Authorization: Bearer $CUSTOMER_TOKEN" | jq -c '{orderNumber, status, total, shippingMethod: .shippingMethod.name}'

COD_SESSION="cod-$RUN"
curl -sS --fail-with-body "$SHOP/cart/items" -H "X-Session-Id: $COD_SESSION" -H 'Content-Type: application/json' \
  -d "$(jq -n --arg variantId "$VARIANT_ID" '{$variantId, quantity: 1}')" | jq -c '{total}'
curl -sS --fail-with-body "$SHOP/cart/payment-options?state=Karnataka&shippingMethodId=$SHIPPING_METHOD_ID" \
  -H "X-Session-Id: $COD_SESSION" | jq -c .data
COD_ORDER=$(curl -sS --fail-with-body "$SHOP/orders" -H "X-Session-Id: $COD_SESSION" -H 'Content-Type: application/json' \
  -H "Idempotency-Key: cod-$RUN" -d "$(jq -n --arg email "meera-$RUN@example.com" --arg shippingMethodId "$SHIPPING_METHOD_ID" \
    '{$email, name: "Meera", phone: "+91 98860 00000", paymentMethod: "cod", $shippingMethodId,
    address: {street: "4 Residency Road", city: "Bengaluru", state: "Karnataka", pincode: "560025", country: "India"}}')")
echo "$COD_ORDER" | jq -c '{orderNumber, status, paymentMethod, paymentStatus, codFee, total}'
COD_ORDER_ID=$(echo "$COD_ORDER" | jq -r .id)
curl -sS --fail-with-body "$SHOP/api/v1/admin/orders/$COD_ORDER_ID/payments" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' -d "$(echo "$COD_ORDER" | jq '{method: "cod", amount: .total, reference: "DLV-REM-0001"}')" \
  | jq -c '.order | {orderNumber, paymentStatus, paidTotal}'

ORDER_ITEM_ID=$(curl -sS --fail-with-body "$SHOP/api/v1/admin/orders/$ORDER_ID" -H "Authorization: Bearer $TOKEN" | jq -r '.items[0].id')
FULFILLMENT_ID=$(curl -sS --fail-with-body "$SHOP/api/v1/admin/orders/$ORDER_ID/fulfillments" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' -d '{"carrier":"Delhivery","trackingNumber":"DL123456789IN",
    "trackingUrl":"https://www.delhivery.com/track/package/DL123456789IN"}' | jq -r .id)
curl -sS --fail-with-body -X POST "$SHOP/api/v1/admin/orders/$ORDER_ID/fulfillments/$FULFILLMENT_ID/deliver" \
  -H "Authorization: Bearer $TOKEN" | jq -c '{carrier, trackingNumber, status}'
curl -sS --fail-with-body "$SHOP/api/v1/admin/orders/$ORDER_ID" -H "Authorization: Bearer $TOKEN" | jq -c '{status, fulfillmentStatus}'

RETURN_ID=$(curl -sS --fail-with-body "$SHOP/orders/$ORDER_ID/returns" -H "Authorization: Bearer $CUSTOMER_TOKEN" \
  -H 'Content-Type: application/json' \
  -d "$(jq -n --arg orderItemId "$ORDER_ITEM_ID" '{items: [{$orderItemId, quantity: 1, reason: "damaged"}]}')" | jq -r .id)
curl -sS --fail-with-body -X POST "$SHOP/api/v1/admin/returns/$RETURN_ID/approve" -H "Authorization: Bearer $TOKEN" | jq -c '{status}'
curl -sS --fail-with-body "$SHOP/api/v1/admin/returns/$RETURN_ID/receive" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' \
  -d "$(jq -n --arg orderItemId "$ORDER_ITEM_ID" '{items: [{$orderItemId, quantity: 1, restock: true}]}')" | jq -c '{status, refundAmount}'
curl -sS --fail-with-body -X POST "$SHOP/api/v1/admin/returns/$RETURN_ID/refund" -H "Authorization: Bearer $TOKEN" \
  | jq -c '{status, refund: (.refund | {amount, status})}'
curl -sS --fail-with-body "$SHOP/api/v1/admin/orders/$ORDER_ID" -H "Authorization: Bearer $TOKEN" \
  | jq -c '{orderNumber, status, paymentStatus, total, refundedTotal}'
