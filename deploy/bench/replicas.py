"""The replica series of the bench (BENCH_REPLICAS=1,2,3 ./deploy/bench.sh): how booking-svc's calls
spread over its replicas, and what one replica's death costs.

    replicas.py calls OUT RPC PID@OPS_URL...          each replica's `grpc_requests_total` for RPC
                                                      (summed over outcomes) and its CPU seconds so far
    replicas.py failover OUT BASE_URL BODIES TOKENS DURATION CONCURRENCY KILL_AFTER PID
                                                      POST /api/bookings from CONCURRENCY threads for
                                                      DURATION s, SIGKILL to PID at KILL_AFTER s; every
                                                      request's time, status and detail
    replicas.py first-call OUT OPS_URL RPC TIMEOUT    how long until a (re)started replica serves RPC,
                                                      polled every 50 ms
    replicas.py table RAW COUNTS...                   prints the series and the fault step

Figures are printed, never asserted.
"""

import json
import os
import re
import signal
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def rpc_calls(ops_url: str, rpc: str) -> int:
    try:
        with urllib.request.urlopen(ops_url.rstrip("/") + "/metrics", timeout=2) as r:
            text = r.read().decode()
    except (urllib.error.URLError, OSError):
        return -1
    total = 0.0
    for line in text.splitlines():
        if line.startswith("grpc_requests_total{") and re.search(rf'rpc="([^"]*/)?{rpc}"', line):
            total += float(line.rsplit(" ", 1)[1])
    return int(total)


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def calls(out: str, rpc: str, replicas: list[str]) -> None:
    rows = []
    for spec in replicas:
        pid, ops_url = spec.split("@", 1)
        rows.append({"pid": int(pid), "ops_url": ops_url, "calls": rpc_calls(ops_url, rpc),
                     "cpu_s": cpu_seconds(int(pid))})
    Path(out).write_text(json.dumps({"rpc": rpc, "at": time.time(), "replicas": rows}))


def failover(out, base_url, bodies_file, tokens_file, duration, concurrency, kill_after, pid) -> None:
    bodies = [line for line in Path(bodies_file).read_text().splitlines() if line]
    tokens = [line for line in Path(tokens_file).read_text().splitlines() if line]
    duration, concurrency, kill_after, pid = float(duration), int(concurrency), float(kill_after), int(pid)
    results: list[tuple[float, float, int, str]] = []
    lock = threading.Lock()
    next_body = iter(range(len(bodies)))
    start = time.monotonic()
    stop_at = start + duration

    def worker(k: int) -> None:
        while time.monotonic() < stop_at:
            with lock:
                i = next(next_body, None)
            if i is None:
                return
            req = urllib.request.Request(
                base_url + "/api/bookings", data=bodies[i].encode(), method="POST",
                headers={"Content-Type": "application/json", "Authorization": "Bearer " + tokens[i % len(tokens)]})
            sent = time.monotonic() - start
            try:
                with urllib.request.urlopen(req, timeout=10) as r:
                    status, body = r.status, r.read()
            except urllib.error.HTTPError as e:
                status, body = e.code, e.read()
            except OSError as e:
                status, body = 0, str(e).encode()
            detail = ""
            if status not in (201, 409):
                try:
                    detail = json.loads(body).get("detail") or ""
                except ValueError:
                    detail = ""
            booking_id = ""
            if status == 201:
                booking_id = json.loads(body).get("booking_id", "")
            with lock:
                results.append((sent, time.monotonic() - start, status, detail or booking_id))

    threads = [threading.Thread(target=worker, args=(k,), daemon=True) for k in range(concurrency)]
    for t in threads:
        t.start()
    time.sleep(kill_after)
    killed_at = time.monotonic() - start
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    for t in threads:
        t.join()
    failures = [r for r in results if r[2] not in (201, 409)]
    Path(out).write_text(json.dumps({
        "requests": len(results),
        "created": [r[3] for r in results if r[2] == 201],
        "conflicts": sum(1 for r in results if r[2] == 409),
        "failures": [{"sent_s": round(r[0], 3), "done_s": round(r[1], 3), "status": r[2], "detail": r[3]}
                     for r in failures],
        "killed_at_s": round(killed_at, 3),
        "duration_s": duration,
        "bodies": bodies[: len(results) + concurrency],
    }))


def first_call(out, ops_url, rpc, timeout) -> None:
    start = time.monotonic()
    base = None
    seen = None
    while time.monotonic() - start < float(timeout):
        n = rpc_calls(ops_url, rpc)
        if n >= 0 and base is None:
            base = n
            up_at = time.monotonic() - start
        if base is not None and n > base:
            seen = time.monotonic() - start
            break
        time.sleep(0.05)
    Path(out).write_text(json.dumps({"first_call_s": seen and round(seen, 3),
                                     "ready_s": None if base is None else round(up_at, 3)}))


def table(raw: str, counts: list[str]) -> None:
    raw_dir = Path(raw)
    print("booking-svc replicas: throughput, p99 and each replica's share of the calls")
    print()
    header = f"{'replicas':>8}  {'scenario':<28} {'req/s':>8} {'p99 ms':>8}  shares of the calls (CPU s)"
    print(header)
    print("-" * len(header))
    base_rps = {}
    for n in counts:
        for key, title, rpc in (("book", "POST /api/bookings", "CreateBooking"),
                                ("read", "GET /api/bookings (client)", "ListBookings")):
            run = raw_dir / f"replicas-{n}-{key}.json"
            before = raw_dir / f"replicas-{n}-{key}.before.json"
            after = raw_dir / f"replicas-{n}-{key}.after.json"
            if not (run.exists() and before.exists() and after.exists()):
                print(f"{n:>8}  {title:<28} {'missing':>8}")
                continue
            rps, p99 = load_figures(run)
            b = json.loads(before.read_text())["replicas"]
            a = json.loads(after.read_text())["replicas"]
            served = [max(0, y["calls"] - x["calls"]) for x, y in zip(b, a)]
            cpu = [y["cpu_s"] - x["cpu_s"] for x, y in zip(b, a)]
            total = sum(served) or 1
            shares = "  ".join(f"{s / total:5.1%} ({c:.1f})" for s, c in zip(served, cpu))
            if n == counts[0]:
                base_rps[key] = rps
            vs = f" ({rps / base_rps[key]:.0%} of {counts[0]})" if base_rps.get(key) and n != counts[0] else ""
            print(f"{n:>8}  {title:<28} {rps:>8,.0f} {p99:>8.1f}  {shares}{vs}")
    fault = raw_dir / "replicas-fault.json"
    if fault.exists():
        f = json.loads(fault.read_text())
        print()
        print("fault step: one of three booking-svc replicas killed (SIGKILL) under booking load")
        failures = f["failures"]
        after_kill = [x for x in failures if x["done_s"] >= f["killed_at_s"]]
        last = max((x["done_s"] for x in after_kill), default=None)
        with_detail = sum(1 for x in failures if x["detail"])
        statuses = sorted({x["status"] for x in failures})
        print(f"  requests {f['requests']:,}, created {len(f['created']):,}, 409 {f['conflicts']:,}, "
              f"failed {len(failures)} (statuses {statuses or '-'}, {with_detail} with a detail)")
        print(f"  lost writes (answered 201, not in the database): {f.get('lost_writes', 'n/a')}; "
              f"created although not answered 201: {f.get('created_unanswered', 'n/a')}")
        took = "no failure at all" if last is None else f"{last - f['killed_at_s']:.3f} s after the kill"
        print(f"  survivors carried every call {took}")
        back = raw_dir / "replicas-restart.json"
        if back.exists():
            r = json.loads(back.read_text())
            print(f"  the replica started again: ready after {r['ready_s']} s, first call after {r['first_call_s']} s")


def load_figures(run: Path) -> tuple[float, float]:
    data = json.loads(run.read_text() or "{}")
    if "summary" in data:  # oha
        s = data["summary"]
        return float(s.get("requestsPerSec") or 0), float((data.get("latencyPercentiles") or {}).get("p99") or 0) * 1000
    seconds = data.get("duration_us", 0) / 1e6
    return (data.get("requests", 0) / seconds if seconds else 0.0), data.get("latency_us", {}).get("p99", 0) / 1000


if __name__ == "__main__":
    cmd, *args = sys.argv[1:]
    if cmd == "calls":
        calls(args[0], args[1], args[2:])
    elif cmd == "failover":
        failover(*args)
    elif cmd == "first-call":
        first_call(*args)
    elif cmd == "table":
        table(args[0], args[1:])
    else:
        sys.exit(__doc__)
