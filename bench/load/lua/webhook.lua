-- Signed payment.captured events, each posted once; a thread stops when its
-- share is sent. Lines are "<signature>\t<body>".
dofile(os.getenv("LUA_DIR") .. "/common.lua")
local events = lines(os.getenv("IDS_FILE"))
local done = false
request = function()
  local line, exhausted = next_own(events)
  if exhausted then done = true end
  local sig, body = line:match("^(%x+)\t(.*)$")
  return wrk.format("POST", "/storefront/payments/gateway/webhook",
    {["Content-Type"] = "application/json", ["X-Gateway-Signature"] = sig}, body)
end
response = function(status, headers, body)
  if done then wrk.thread:stop() end
end
