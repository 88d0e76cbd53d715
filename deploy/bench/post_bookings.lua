-- wrk script: POST /api/bookings, every request a different (coach, slot, date) from a list the
-- seeder wrote, signed in as one of several clients in turn. Needs, in the environment:
--   BENCH_BODIES   file with one JSON body per line (booking_bodies.jsonl)
--   BENCH_TOKENS   file with one client bearer token per line
--   BENCH_OUT      where done() writes its JSON summary
-- Thread k of n sends lines k, k+n, k+2n, ...: no two requests share a body. A thread that runs
-- out of lines starts over, and those repeats answer 409 (counted, never hidden).

local threads = {}
local counter = 0

function setup(thread)
  thread:set("id", counter)
  table.insert(threads, thread)
  counter = counter + 1
end

local function lines(path)
  local out = {}
  local f = assert(io.open(path, "r"), "cannot open " .. tostring(path))
  for line in f:lines() do
    if #line > 0 then
      table.insert(out, line)
    end
  end
  f:close()
  return out
end

function init(args)
  local all = lines(os.getenv("BENCH_BODIES"))
  tokens = lines(os.getenv("BENCH_TOKENS"))
  bodies = {}
  local n = tonumber(os.getenv("BENCH_THREADS") or "1")
  for i = id + 1, #all, n do
    table.insert(bodies, all[i])
  end
  next_body = 1
  created = 0
  conflicts = 0
  other = 0
  wrapped = 0
end

function request()
  local body = bodies[next_body]
  local token = tokens[(next_body % #tokens) + 1]
  next_body = next_body + 1
  if next_body > #bodies then
    next_body = 1
    wrapped = wrapped + 1
  end
  return wrk.format("POST", "/api/bookings", {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. token,
  }, body)
end

function response(status, headers, body)
  if status == 201 then
    created = created + 1
  elseif status == 409 then
    conflicts = conflicts + 1
  else
    other = other + 1
  end
end

function done(summary, latency, requests)
  local c, k, o, w = 0, 0, 0, 0
  for _, thread in ipairs(threads) do
    c = c + thread:get("created")
    k = k + thread:get("conflicts")
    o = o + thread:get("other")
    w = w + thread:get("wrapped")
  end
  local e = summary.errors
  local f = assert(io.open(os.getenv("BENCH_OUT"), "w"))
  f:write(string.format(
    '{"requests":%d,"duration_us":%d,"bytes":%d,' ..
      '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
      '"status":{"201":%d,"409":%d,"other":%d},"wrapped":%d,' ..
      '"latency_us":{"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.1f}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    c, k, o, w,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
  f:close()
end
