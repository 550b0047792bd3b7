dofile(os.getenv("LUA_DIR") .. "/common.lua")
local variants = lines(os.getenv("IDS_FILE"))
local sessions = tonumber(os.getenv("SESSIONS") or "5000")
request = function()
  local headers = {["Content-Type"] = "application/json", ["X-Session-Id"] = "bench-cart-" .. math.random(sessions)}
  local body = '{"variantId":"' .. variants[math.random(#variants)] .. '","quantity":1}'
  return wrk.format("POST", "/cart/items", headers, body)
end
