-- Shared by every scenario (loaded with dofile from the scenario scripts):
-- per-thread ids, seeded randomness and line files. Scenarios whose items
-- are single-use (carts to check out, events to pay) are not wrk scripts:
-- bench/load/once.go sends each of them exactly once.
local counter = 0
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end

function init(args)
  math.randomseed(os.time() * 1000 + (tid or 0) * 7919)
end

function lines(path)
  local out = {}
  for line in io.lines(path) do out[#out + 1] = line end
  return out
end
