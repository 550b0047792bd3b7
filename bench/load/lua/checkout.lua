-- Guest checkout of distinct, pre-filled carts: each request uses a cart no
-- other request used (until the list is exhausted).
dofile(os.getenv("LUA_DIR") .. "/common.lua")
local sessions = lines(os.getenv("IDS_FILE"))
request = function()
  local s = next_own(sessions)
  local headers = {["Content-Type"] = "application/json", ["X-Session-Id"] = s}
  local body = '{"email":"' .. s .. '@example.com","name":"Bench Guest","phone":"9876543210",' ..
    '"address":{"type":"shipping","street":"12 MG Road","city":"Bengaluru","state":"Karnataka",' ..
    '"pincode":"560001","district":"Bengaluru Urban","country":"IN"},"shippingCost":0}'
  return wrk.format("POST", "/orders", headers, body)
end
