-- An authenticated admin GET; PATHS is a file of paths picked at random.
dofile(os.getenv("LUA_DIR") .. "/common.lua")
local paths = lines(os.getenv("IDS_FILE"))
local auth = "Bearer " .. os.getenv("TOKEN")
request = function()
  return wrk.format("GET", paths[math.random(#paths)], {["Authorization"] = auth})
end
