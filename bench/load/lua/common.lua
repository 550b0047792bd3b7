-- Shared by every scenario (loaded with dofile from the scenario scripts):
-- per-thread ids, seeded randomness and line files.
local counter = 0
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end

function init(args)
  math.randomseed(os.time() * 1000 + (tid or 0) * 7919)
  threads = tonumber(os.getenv("THREADS") or "2")
  n = 0
end

function lines(path)
  local out = {}
  for line in io.lines(path) do out[#out + 1] = line end
  return out
end

-- next_own returns this thread's next item of list; threads take disjoint
-- items, and wrap when the list is exhausted.
function next_own(list)
  local i = ((tid or 0) + n * threads) % #list + 1
  n = n + 1
  return list[i], n * threads > #list
end
