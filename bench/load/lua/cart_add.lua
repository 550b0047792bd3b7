dofile(os.getenv("LUA_DIR") .. "/common.lua")
local variants = lines(os.getenv("IDS_FILE"))
local sessions = tonumber(os.getenv("SESSIONS") or "5000")
-- A variant of the scenario names its own carts, so that it does not add
-- to the carts another filled.
local prefix = os.getenv("SESSION_PREFIX") or "bench-cart-"
request = function()
  local headers = {["Content-Type"] = "application/json", ["X-Session-Id"] = prefix .. math.random(sessions)}
  local body = '{"variantId":"' .. variants[math.random(#variants)] .. '","quantity":1}'
  return wrk.format("POST", "/cart/items", headers, body)
end
