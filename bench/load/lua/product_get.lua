dofile(os.getenv("LUA_DIR") .. "/common.lua")
local ids = lines(os.getenv("IDS_FILE"))
request = function()
  return wrk.format("GET", "/products/" .. ids[math.random(#ids)])
end
