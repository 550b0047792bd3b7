dofile(os.getenv("LUA_DIR") .. "/common.lua")
local sessions = tonumber(os.getenv("SESSIONS") or "5000")
request = function()
  return wrk.format("GET", "/cart", {["X-Session-Id"] = "bench-cart-" .. math.random(sessions)})
end
