dofile(os.getenv("LUA_DIR") .. "/common.lua")
local pages = tonumber(os.getenv("PAGES") or "50")
request = function()
  return wrk.format("GET", "/products?limit=20&page=" .. math.random(pages))
end
