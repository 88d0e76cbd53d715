#!/usr/bin/env python3
"""The bench's bookkeeping (standard library only), called by deploy/bench.sh:

    report.py oha-rps FILE                      requests/s of an oha --json result (an integer)
    report.py web BASE_URL DIST OUT             landing-page JS as nginx sends it gzipped, cache headers
    report.py memory OUT NAME=PID...            VmHWM / VmRSS of each process (and of its children)
    report.py table RAW_DIR OUT_JSON OUT_MD     the one table, the targets, latest.json and latest.md
    report.py compare ONE_X.json N_X.json OUT_MD  a 1x and an Nx run side by side (req/s, p99, CPU
                                                per request and its ratio), issue 20's targets

Scenarios are listed by bench.sh in RAW_DIR/scenarios.tsv, one per line:
    key <TAB> title <TAB> load (concurrency or rate) <TAB> tool (oha|wrk) <TAB> result file <TAB> expected statuses
Figures are printed, never asserted: a missed target is reported, not an error.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import sys
import urllib.request
from pathlib import Path

MB = 1024 * 1024


# ---------------------------------------------------------------------------------------------
# Load-tool results


def read_oha(path: Path) -> dict:
    data = json.loads(path.read_text())
    summary = data.get("summary", {})
    pct = data.get("latencyPercentiles", {})
    statuses = {str(k): int(v) for k, v in (data.get("statusCodeDistribution") or {}).items()}
    # Requests still in flight when -z ends are "aborted due to deadline": neither answered nor
    # failed, so they count nowhere (oha's own requestsPerSec counts them; this does not).
    errors = {k: int(v) for k, v in (data.get("errorDistribution") or {}).items() if k != "aborted due to deadline"}
    conn_errors = sum(errors.values())
    answered = sum(statuses.values()) + conn_errors
    seconds = float(summary.get("total") or 0.0)
    return {
        "requests": answered,
        "rps": answered / seconds if seconds else 0.0,
        "p50_ms": float(pct.get("p50") or 0.0) * 1000,
        "p99_ms": float(pct.get("p99") or 0.0) * 1000,
        "max_ms": float(summary.get("slowest") or 0.0) * 1000,
        "statuses": statuses,
        "connection_errors": conn_errors,
        "error_kinds": errors,
        "bytes_per_request": summary.get("sizePerRequest"),
    }


def read_wrk(path: Path) -> dict:
    data = json.loads(path.read_text())
    seconds = data["duration_us"] / 1e6
    e = data["errors"]
    lat = data["latency_us"]
    statuses = {k: v for k, v in data["status"].items() if v}
    return {
        "requests": data["requests"],
        "rps": data["requests"] / seconds if seconds else 0.0,
        "p50_ms": lat["p50"] / 1000,
        "p99_ms": lat["p99"] / 1000,
        "max_ms": lat["max"] / 1000,
        "statuses": statuses,
        "connection_errors": e["connect"] + e["read"] + e["write"] + e["timeout"],
        "error_kinds": {k: v for k, v in e.items() if v and k != "status"},
        "wrapped": data.get("wrapped", 0),
    }


def scenario_rows(raw: Path) -> list[dict]:
    rows = []
    manifest = raw / "scenarios.tsv"
    if not manifest.exists():
        return rows
    for line in manifest.read_text().splitlines():
        if not line.strip():
            continue
        key, title, load, tool, file, expected = line.split("\t")
        path = raw / file
        row = {"key": key, "scenario": title, "load": load, "tool": tool}
        if not path.exists() or path.stat().st_size == 0:
            row.update(missing=True, rps=0.0, p50_ms=0.0, p99_ms=0.0, errors=None, statuses={})
            rows.append(row)
            continue
        result = read_oha(path) if tool == "oha" else read_wrk(path)
        ok = set(expected.split(","))
        unexpected = sum(n for s, n in result["statuses"].items() if s not in ok)
        row.update(result)
        row["errors"] = unexpected + result["connection_errors"]
        # The race is 50 requests (below the clock's resolution); during the storm the login's
        # CPU would be charged to the read: neither gets a breakdown.
        row["cpu"] = None if key in ("race", "storm_read", "storm_read2") else cpu_breakdown(raw, key, result["requests"])
        rows.append(row)
    return rows


# ---------------------------------------------------------------------------------------------
# Web: the landing page's JavaScript, as nginx sends it


def fetch(url: str) -> tuple[bytes, dict]:
    req = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.read(), {k.lower(): v for k, v in resp.headers.items()}


def web(base_url: str, dist: Path, out: Path) -> None:
    html = (dist / "index.html").read_text()
    entry = re.findall(r'<script[^>]+type="module"[^>]+src="([^"]+\.js)"', html)
    preload = re.findall(r'<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"', html)
    todo = list(dict.fromkeys(entry + preload))
    seen: list[str] = []
    # Static imports of those files too (a lazy `import("...")` is a route's own chunk: not counted).
    while todo:
        path = todo.pop(0)
        if path in seen:
            continue
        seen.append(path)
        text = (dist / path.lstrip("/")).read_text(errors="replace")
        for dep in re.findall(r'(?:from|import)\s*"(\./[^"]+\.js)"', text):
            dep_path = str(Path(path).parent / dep[2:])
            if dep_path not in seen:
                todo.append(dep_path)
    files = []
    for path in seen:
        body, headers = fetch(base_url + path)
        raw = (dist / path.lstrip("/")).read_bytes()
        files.append({
            "path": path,
            "bytes": len(raw),
            "gzip_bytes_sent": len(body),
            "content_encoding": headers.get("content-encoding", ""),
            "cache_control": headers.get("cache-control", ""),
            "gzip9_bytes": len(gzip.compress(raw, 9)),
        })
    lazy = sorted(p.name for p in (dist / "assets").glob("*.js") if "/assets/" + p.name not in seen)
    result = {
        "landing_js_files": files,
        "landing_js_bytes": sum(f["bytes"] for f in files),
        "landing_js_gzip_bytes": sum(f["gzip_bytes_sent"] for f in files),
        "landing_js_gzip9_bytes": sum(f["gzip9_bytes"] for f in files),
        "all_sent_gzip": all(f["content_encoding"] == "gzip" for f in files),
        "long_lived_cache": all("immutable" in f["cache_control"] and "max-age=31536000" in f["cache_control"]
                                for f in files),
        "hashed_names": all(re.search(r"-[A-Za-z0-9_-]{8}\.js$", f["path"]) for f in files),
        "lazy_chunks": lazy,
    }
    out.write_text(json.dumps(result, indent=2) + "\n")


# ---------------------------------------------------------------------------------------------
# Memory


def status_kb(pid: int, field: str) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def children(pid: int) -> list[int]:
    kids = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            pass
    return kids


def memory(out: Path, pairs: list[str]) -> None:
    result = {}
    for pair in pairs:
        name, _, pid_text = pair.partition("=")
        if not pid_text.isdigit():
            result[name] = None
            continue
        pid = int(pid_text)
        entry = {"pid": pid, "vm_hwm_kb": status_kb(pid, "VmHWM"), "vm_rss_kb": status_kb(pid, "VmRSS")}
        kids = children(pid)
        if kids:
            peaks = [(k, status_kb(k, "VmHWM")) for k in kids]
            peaks = [(k, v) for k, v in peaks if v is not None]
            if peaks:
                entry["children"] = len(peaks)
                entry["children_max_vm_hwm_kb"] = max(v for _, v in peaks)
        result[name] = entry
    out.write_text(json.dumps(result, indent=2) + "\n")


# ---------------------------------------------------------------------------------------------
# CPU accounting: where each scenario's CPU time went


def proc_ticks(pid: int) -> int | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime (fields 14 and 15)
    except (OSError, ValueError, IndexError):
        return None


def machine_ticks() -> tuple[int, int, int]:
    """Busy, idle and stolen ticks of the whole machine. Steal is time the hypervisor ran something
    else while one of this VM's CPUs had work: it counts as busy, but nobody here did it."""
    parts = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = parts[3] + parts[4]  # idle + iowait
    steal = parts[7] if len(parts) > 7 else 0
    return sum(parts[:8]) - idle, idle, steal


def cpu_snapshot(out: Path, pairs: list[str]) -> None:
    import time
    procs: dict[str, dict[str, int]] = {}
    hwm: dict[str, int] = {}
    for pair in pairs:
        name, _, pid_text = pair.partition("=")
        if pid_text.isdigit() and (ticks := proc_ticks(int(pid_text))) is not None:
            procs.setdefault(name, {})[pid_text] = ticks
            if (peak := status_kb(int(pid_text), "VmHWM")) is not None and name not in ("postgres", "nginx"):
                hwm[name] = peak
    busy, idle, steal = machine_ticks()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"time": time.time(), "busy": busy, "idle": idle, "steal": steal, "procs": procs,
                               "vm_hwm_kb": hwm}))


def peak_scenarios(raw: Path, rows: list[dict]) -> dict[str, str]:
    """For each process, the first scenario after which its VmHWM reached its final value."""
    final: dict[str, int] = {}
    seen: list[tuple[str, dict]] = []
    for r in rows:
        snap = load_json(raw / "cpu" / f"{r['key']}.after.json")
        if snap:
            seen.append((r["scenario"], snap.get("vm_hwm_kb", {})))
            for name, kb in snap.get("vm_hwm_kb", {}).items():
                final[name] = max(final.get(name, 0), kb)
    out = {}
    for name, kb in final.items():
        out[name] = next((title for title, h in seen if h.get(name, 0) >= kb), "")
    return out


def cpu_breakdown(raw: Path, key: str, requests: int) -> dict | None:
    """CPU microseconds per answered request for each process of the mesh and for the load tool,
    and how many cores the whole machine was busy (the rest is other work on the machine)."""
    before, after = load_json(raw / "cpu" / f"{key}.before.json"), load_json(raw / "cpu" / f"{key}.after.json")
    if not before or not after or not requests:
        return None
    hz = os.sysconf("SC_CLK_TCK")
    elapsed = after["time"] - before["time"]
    per: dict[str, float] = {}
    for name, pids in after["procs"].items():
        start = before["procs"].get(name, {})
        ticks = sum(t - start.get(pid, 0) for pid, t in pids.items())
        per[name] = ticks / hz / requests * 1e6
    tool = load_json(raw / f"{key}.time.json")
    if tool:
        per["load tool"] = (tool["user"] + tool["sys"]) / requests * 1e6
    busy_cores = (after["busy"] - before["busy"]) / hz / elapsed if elapsed else 0.0
    steal_cores = (after.get("steal", 0) - before.get("steal", 0)) / hz / elapsed if elapsed else 0.0
    ours_cores = sum(per.values()) * requests / 1e6 / elapsed if elapsed else 0.0
    return {
        "us_per_request": {k: round(v, 1) for k, v in per.items()},
        "mesh_us_per_request": round(sum(v for k, v in per.items() if k != "load tool"), 1),
        "machine_busy_cores": round(busy_cores, 2),
        "other_work_cores": round(max(busy_cores - ours_cores - steal_cores, 0.0), 2),
        "stolen_cores": round(steal_cores, 2),
        "elapsed_s": round(elapsed, 2),
        # If every core did only this (mesh and load tool), at this CPU per request: an estimate of
        # the figure an idle machine would give, since this one is shared.
        "idle_max_rps": round(os.cpu_count() * 1e6 / sum(per.values())) if sum(per.values()) else None,
    }


# ---------------------------------------------------------------------------------------------
# The table and the targets


def fmt_ms(v: float) -> str:
    return f"{v:.1f}" if v < 100 else f"{v:.0f}"


def load_json(path: Path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("met" if ok else "NOT met")


def table(raw: Path, out_json: Path, out_md: Path) -> None:
    rows = scenario_rows(raw)
    by = {r["key"]: r for r in rows}
    meta = load_json(raw / "meta.json") or {}
    mem = load_json(raw / "memory.json") or {}
    webr = load_json(raw / "web.json") or {}
    argon = load_json(raw / "argon2.json") or {}
    directory = load_json(raw / "directory_check.json") or {}
    first_rows = load_json(raw / "first_rows.json") or {}

    def rps(key):
        return by.get(key, {}).get("rps")

    def p99(key):
        return by.get(key, {}).get("p99_ms")

    def all_le(keys, limit, f):
        vals = [f(k) for k in keys if by.get(k) and not by[k].get("missing")]
        return None if len(vals) < len(keys) else all(v <= limit for v in vals)

    targets = []

    def target(name, wanted, got, ok, note=""):
        targets.append({"target": name, "wanted": wanted, "got": got, "status": verdict(ok), "note": note})

    reads = ["profile", "locations", "availability", "courts"]
    got_reads = ", ".join(f"{k} {rps(k) or 0:,.0f}/s" for k in reads)
    target("Single-resource reads: throughput", ">= 4,000 req/s each", got_reads,
           None if any(rps(k) is None for k in reads) else all(rps(k) >= 4000 for k in reads))
    # The issue sets the p99 "at half that rate", that rate being its 4,000/s: the verdict is
    # taken at 2,000/s. Half the rate this machine reached is shown beside it, a stricter check.
    paced = [k + "_target" for k in reads]
    target("Single-resource reads: p99 at 2,000/s (half the 4,000/s target)", "<= 10 ms",
           ", ".join(f"{k} {p99(k + '_target') or 0:.1f} ms" for k in reads)
           + "; at half the max rate: " + ", ".join(f"{p99(k + '_half') or 0:.1f}" for k in reads) + " ms",
           all_le(paced, 10.0, p99))
    target("Directory: compressed", "gzip or brotli",
           f"{directory.get('content_encoding') or 'none'} "
           f"({directory.get('bytes_identity', 0):,} B -> {directory.get('bytes_gzip', 0):,} B)",
           directory.get("content_encoding") in ("gzip", "br") if directory else None)
    target("Directory: ETag revalidation", "304 on If-None-Match; ETag changes on a listing change",
           f"304: {directory.get('revalidation_status')}, changes after an edit: {directory.get('etag_changes')}",
           (directory.get("revalidation_status") == 304 and bool(directory.get("etag_changes"))) if directory else None)
    target("Directory: 304 revalidation throughput", ">= 4,000 req/s", f"{rps('directory_304') or 0:,.0f}/s",
           None if rps("directory_304") is None else rps("directory_304") >= 4000)
    target("Directory: full response p99 at 2,000/s", "<= 25 ms",
           f"{p99('directory_target') or 0:.1f} ms (at half its max rate: {p99('directory_half') or 0:.1f} ms, "
           f"at c={meta.get('concurrency', 32)}: {p99('directory') or 0:.1f} ms)",
           all_le(["directory_target"], 25.0, p99))
    target("Booking creation on distinct slots", ">= 1,500/s, p99 <= 50 ms",
           f"{rps('book') or 0:,.0f}/s, p99 {p99('book') or 0:.1f} ms",
           None if rps("book") is None else rps("book") >= 1500 and p99("book") <= 50)
    # Issue 33: booking creation with payments on (paid coaches, a saved card) within 10 % of the
    # same run with payments off (free coaches).
    on, off = rps("book"), rps("book_free")
    target("Booking creation: payments on vs off", "on within 10 % of off (req/s)",
           f"on {on or 0:,.0f}/s, p99 {p99('book') or 0:.1f} ms; off {off or 0:,.0f}/s, p99 {p99('book_free') or 0:.1f} ms"
           + (f" ({(on / off - 1) * 100:+.1f} %)" if on and off else ""),
           None if not (on and off) else on >= 0.9 * off)
    race = by.get("race", {})
    created, conflicts = race.get("statuses", {}).get("201", 0), race.get("statuses", {}).get("409", 0)
    target("50-client race for one slot", "all 50 answered: 1 created, 49 conflicts; p99 <= 50 ms",
           f"{created} created, {conflicts} conflicts, {race.get('errors')} other; p99 {race.get('p99_ms', 0):.1f} ms",
           None if not race else (created == 1 and conflicts == 49 and race.get("p99_ms", 1e9) <= 50))
    ceiling = argon.get("threads_n", {}).get("per_second")
    login = rps("login")
    hash_ms = argon.get("threads_n", {}).get("cpu_ms_per_hash")
    login_cpu = (by.get("login", {}).get("cpu") or {}).get("mesh_us_per_request")
    cpu_note = ""
    if hash_ms and login_cpu:
        cpu_note = (f"by CPU time: a login costs {login_cpu / 1000:.1f} ms of mesh CPU, a hash {hash_ms:.1f} ms "
                    f"({hash_ms / (login_cpu / 1000) * 100:.0f} % of a login is the hash)")
    # On a shared machine the wall-clock ceiling moves with everyone else's work; the CPU one login
    # costs against the CPU one hash costs does not, so the verdict uses that when it is known.
    by_cpu = hash_ms / (login_cpu / 1000) if hash_ms and login_cpu else None
    target("Login throughput vs the argon2id ceiling", ">= 90 % of the in-process rate",
           f"{login or 0:.1f}/s vs {ceiling or 0:.1f}/s wall clock ({(login or 0) / ceiling * 100 if ceiling else 0:.0f} %)"
           + (f"; {cpu_note}" if cpu_note else ""),
           by_cpu >= 0.9 if by_cpu is not None else (None if not (login and ceiling) else login >= 0.9 * ceiling),
           "judged by CPU time" if by_cpu is not None else "judged by wall clock")
    target("Cheap read during a login storm", "p99 <= 25 ms",
           f"{p99('storm_read') or 0:.1f} ms (coach profile, names from identity-svc), "
           f"{p99('storm_read2') or 0:.1f} ms (availability, identity-svc not involved)",
           all_le(["storm_read", "storm_read2"], 25.0, p99))
    svc_peaks = {n: (mem.get(n) or {}).get("vm_hwm_kb") for n in ("identity-svc", "coaching-svc", "booking-svc", "gym-svc")}
    gw_peak = (mem.get("gateway") or {}).get("vm_hwm_kb")
    target("Memory: each service peak", "<= 50 MB",
           ", ".join(f"{n} {(v or 0) / 1024:.1f} MB" for n, v in svc_peaks.items()),
           None if None in svc_peaks.values() else all(v / 1024 <= 50 for v in svc_peaks.values()))
    target("Memory: gateway peak", "<= 60 MB", f"{(gw_peak or 0) / 1024:.1f} MB",
           None if gw_peak is None else gw_peak / 1024 <= 60)
    starts = [meta.get("startup_fresh_s"), meta.get("startup_restart_s")]
    target("From built binaries to all processes healthy", "<= 3 s",
           f"{starts[0] or 0:.2f} s (empty database, migrations run), {starts[1] or 0:.2f} s (restart, seeded)",
           None if None in starts else max(starts) <= 3.0)
    js = webr.get("landing_js_gzip_bytes")
    target("Web: landing-page JS gzipped", "<= 150 KB", f"{(js or 0) / 1024:.1f} KB "
           f"({len(webr.get('landing_js_files', []))} files; {len(webr.get('lazy_chunks', []))} lazy chunks)",
           None if js is None else js <= 150 * 1024)
    target("Web: hashed names, long-lived cache headers", "immutable, max-age=31536000",
           f"hashed {webr.get('hashed_names')}, cache {webr.get('long_lived_cache')}",
           None if not webr else bool(webr.get("hashed_names") and webr.get("long_lived_cache")))

    # ---- print ------------------------------------------------------------------------------
    head = ("scenario", "load", "req/s", "p50 ms", "p99 ms", "errors")
    lines = []
    for r in rows:
        if r.get("missing"):
            lines.append((r["scenario"], r["load"], "-", "-", "-", "no result"))
            continue
        lines.append((r["scenario"], r["load"], f"{r['rps']:,.0f}" if r["rps"] >= 100 else f"{r['rps']:.1f}",
                      fmt_ms(r["p50_ms"]), fmt_ms(r["p99_ms"]),
                      str(r["errors"]) + (f" ({describe_statuses(r)})" if r["key"] in ("race", "book", "book_free") else "")))
    widths = [max(len(h), *(len(l[i]) for l in lines)) if lines else len(h) for i, h in enumerate(head)]

    def row_text(cells):
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    print(row_text(head))
    print("  ".join("-" * w for w in widths))
    for l in lines:
        print(row_text(l))
    print()
    cpu_head, cpu_lines = cpu_table(rows)
    if cpu_lines:
        print("where the CPU went: microseconds of CPU per answered request, by process; the machine's busy cores")
        print("(\"others\" = cores busy with work outside this bench: other meshes, builds, tests on the machine;")
        print(" \"stolen\" = cores' worth of time the hypervisor gave to other guests while this one had work;")
        print(" \"max/s idle\" = cores / (mesh + tool CPU per request): the rate if the machine did nothing else)")
        cw = [max(len(h), *(len(l[i]) for l in cpu_lines)) for i, h in enumerate(cpu_head)]
        print("  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(cpu_head, cw))))
        print("  ".join("-" * w for w in cw))
        for l in cpu_lines:
            print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(l, cw))))
        print()
    mem_lines = memory_lines(mem, peak_scenarios(raw, rows))
    print("peak memory (VmHWM at the end of the bench):")
    for name, text in mem_lines:
        print(f"  {name:<14} {text}")
    print()
    extra = []
    if ceiling:
        extra.append(f"argon2id ceiling (in-process, OWASP m=12288 t=3 p=1): "
                     f"{argon.get('threads_1', {}).get('per_second', 0):.1f}/s on 1 thread, "
                     f"{ceiling:.1f}/s on {argon.get('threads_n', {}).get('threads')} threads "
                     f"({hash_ms or 0:.1f} ms of CPU per hash)")
    if meta.get("seed_s") is not None:
        extra.append(f"seeding: {meta['seed_s']:.1f} s; startup: fresh {starts[0] or 0:.2f} s, restart {starts[1] or 0:.2f} s")
    if directory.get("heavy_coach_bookings") is not None:
        extra.append(f"answers measured: the coach's list holds {directory['heavy_coach_bookings']} bookings, nearby search "
                     f"returns {directory.get('nearby_coaches')} coaches, the directory {directory.get('coaches')} "
                     f"({directory.get('bytes_identity', 0) / 1024:.0f} KB, {directory.get('bytes_gzip', 0) / 1024:.0f} KB gzipped)")
    for key, page in first_rows.items():
        extra.append(f"Chromium, {page['path']}: first rows {page['median_first_row_ms']} ms after navigation "
                     f"(median of {len(page['runs'])}), {page['runs'][-1]['rows_in_dom']} rows in the DOM")
    if js is not None:
        extra.append(f"landing-page JS: {js / 1024:.1f} KB gzipped as sent ({webr.get('landing_js_bytes', 0) / 1024:.1f} KB raw)")
    for e in extra:
        print(e)
    print()
    print("targets (issue 8):")
    for t in targets:
        print(f"  [{t['status']:>7}] {t['target']}: {t['got']} (wanted {t['wanted']})")

    # ---- write ------------------------------------------------------------------------------
    result = {
        "machine": meta.get("machine"),
        "started_at": meta.get("started_at"),
        "git_commit": meta.get("git_commit"),
        "load_on_machine": meta.get("load_on_machine"),
        "scale": meta.get("scale", 1),
        "scenarios": [{k: v for k, v in r.items() if k not in ("missing",)} for r in rows],
        "first_rows": first_rows,
        "memory": mem,
        "argon2": argon,
        "directory": directory,
        "web": webr,
        "seed_s": meta.get("seed_s"),
        "startup_fresh_s": starts[0],
        "startup_restart_s": starts[1],
        "targets": targets,
    }
    out_json.write_text(json.dumps(result, indent=2) + "\n")
    md = [f"- {e}" for e in extra] + [""]
    md += ["| scenario | load | req/s | p50 ms | p99 ms | errors |", "|---|---|---:|---:|---:|---:|"]
    md += [f"| {' | '.join(l)} |" for l in lines]
    if cpu_lines:
        md += ["", "| CPU µs per request | " + " | ".join(cpu_head[1:]) + " |", "|---|" + "---:|" * (len(cpu_head) - 1)]
        md += [f"| {' | '.join(l)} |" for l in cpu_lines]
    md += ["", "| process | peak memory (VmHWM) |", "|---|---:|"]
    md += [f"| {n} | {t} |" for n, t in mem_lines]
    md += ["", "| target (issue 8) | wanted | got | |", "|---|---|---|---|"]
    md += [f"| {t['target']} | {t['wanted']} | {t['got']} | {t['status']} |" for t in targets]
    out_md.write_text("\n".join(md) + "\n")


# ---------------------------------------------------------------------------------------------
# Two scales side by side (issue 20)

# The issue-20 scenarios and their targets at 10x.
READS_20 = ["profile", "locations", "availability", "courts", "directory_page", "admin_users_page",
            "coach_bookings_page", "nearby"]
CPU_RATIO_LIMIT = 1.25


def compare(one_path: Path, many_path: Path, out_md: Path) -> None:
    """Each scenario's req/s, p99 and mesh CPU per request in a 1x run and in a larger one, side by
    side, with the ratio of CPU per request; then issue 20's targets, judged on the larger run."""
    one, many = load_json(one_path), load_json(many_path)
    if not one or not many:
        print(f"compare: cannot read {one_path} or {many_path}", file=sys.stderr)
        sys.exit(1)
    scale = (many.get("scale") or 10)
    a = {r["key"]: r for r in one.get("scenarios", [])}
    b = {r["key"]: r for r in many.get("scenarios", [])}

    def cpu(r):
        return ((r or {}).get("cpu") or {}).get("mesh_us_per_request")

    head = ["scenario", "1x req/s", f"{scale}x req/s", "1x p99 ms", f"{scale}x p99 ms",
            "1x CPU us/req", f"{scale}x CPU us/req", "CPU ratio"]
    lines = []
    for key, r in b.items():
        o = a.get(key)
        ca, cb = cpu(o), cpu(r)
        ratio = f"{cb / ca:.2f}" if ca and cb else "-"
        lines.append([r.get("scenario", key),
                      f"{o['rps']:,.0f}" if o and o.get("rps") is not None else "-",
                      f"{r['rps']:,.0f}" if r.get("rps") is not None else "-",
                      fmt_ms(o["p99_ms"]) if o and o.get("p99_ms") is not None else "-",
                      fmt_ms(r["p99_ms"]) if r.get("p99_ms") is not None else "-",
                      f"{ca:,.0f}" if ca else "-", f"{cb:,.0f}" if cb else "-", ratio])

    targets = []

    def target(name, wanted, got, ok):
        targets.append({"target": name, "wanted": wanted, "got": got, "status": verdict(ok)})

    def rps(key):
        return (b.get(key) or {}).get("rps")

    def p99(key):
        return (b.get(key) or {}).get("p99_ms")

    have = [k for k in READS_20 if rps(k) is not None]
    target(f"{scale}x: reads, a page of the directory, of admin users, a coach's first page, nearby",
           ">= 3,000 req/s each", ", ".join(f"{k} {rps(k):,.0f}/s" for k in have),
           None if len(have) < len(READS_20) else all(rps(k) >= 3000 for k in READS_20))
    # The p99 at 1,000/s: the issue-20 lists were paced at 1,000/s; the single reads at 2,000/s
    # (issue 8's check, the stricter one), which stands in for 1,000/s.
    paced = {k: (k + "_1000" if (k + "_1000") in b else k + "_target") for k in READS_20}
    have = [k for k in READS_20 if p99(paced[k]) is not None]
    target(f"{scale}x: their p99 at 1,000/s", "<= 10 ms",
           ", ".join(f"{k} {p99(paced[k]):.1f} ms" + (" (at 2,000/s)" if paced[k].endswith("_target") else "")
                     for k in have),
           None if len(have) < len(READS_20) else all(p99(paced[k]) <= 10 for k in READS_20))
    target(f"{scale}x: admin stats", ">= 5,000 req/s", f"{rps('admin_stats') or 0:,.0f}/s",
           None if rps("admin_stats") is None else rps("admin_stats") >= 5000)
    ratios = {k: cpu(b[k]) / cpu(a[k]) for k in b if k in a and cpu(a[k]) and cpu(b[k])}
    worst = sorted(ratios.items(), key=lambda kv: -kv[1])[:5]
    target(f"CPU per request at {scale}x against 1x", f"<= {CPU_RATIO_LIMIT}x for every scenario",
           "highest: " + ", ".join(f"{k} {v:.2f}x" for k, v in worst),
           None if not ratios else all(v <= CPU_RATIO_LIMIT for v in ratios.values()))
    rows_b = many.get("first_rows") or {}
    for key, label in (("admin_dashboard", "admin dashboard"), ("expert_coaches", "/expert-coaches")):
        got = (rows_b.get(key) or {}).get("median_first_row_ms")
        target(f"{scale}x, Chromium: {label}'s first rows after navigation", "<= 1,000 ms",
               f"{got} ms ({(rows_b.get(key) or {}).get('runs', [{}])[-1].get('rows_in_dom')} rows in the DOM)"
               if got is not None else "not measured", None if got is None else got <= 1000)

    widths = [max(len(h), *(len(l[i]) for l in lines)) if lines else len(h) for i, h in enumerate(head)]
    print(f"1x ({one.get('git_commit')}, {one.get('started_at')}) and {scale}x "
          f"({many.get('git_commit')}, {many.get('started_at')}): mesh CPU per answered request")
    print("  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(head, widths))))
    print("  ".join("-" * w for w in widths))
    for l in lines:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(l, widths))))
    print()
    print("targets (issue 20):")
    for t in targets:
        print(f"  [{t['status']:>7}] {t['target']}: {t['got']} (wanted {t['wanted']})")
    md = [f"1x: {one.get('git_commit')}, {one.get('started_at')}; {scale}x: {many.get('git_commit')}, "
          f"{many.get('started_at')}", "",
          "| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    md += [f"| {' | '.join(l)} |" for l in lines]
    md += ["", "| target (issue 20) | wanted | got | |", "|---|---|---|---|"]
    md += [f"| {t['target']} | {t['wanted']} | {t['got']} | {t['status']} |" for t in targets]
    out_md.write_text("\n".join(md) + "\n")


CPU_COLUMNS = [("nginx", "nginx"), ("gateway", "gateway"), ("identity-svc", "identity"),
               ("coaching-svc", "coaching"), ("booking-svc", "booking"), ("gym-svc", "gym"),
               ("postgres", "postgres"), ("redis", "redis"), ("load tool", "tool")]


def cpu_table(rows: list[dict]) -> tuple[list[str], list[list[str]]]:
    head = ["scenario", *(label for _, label in CPU_COLUMNS), "mesh", "busy cores", "others", "stolen",
            "max/s idle"]
    lines = []
    for r in rows:
        cpu = r.get("cpu")
        if not cpu:
            continue
        per = cpu["us_per_request"]
        lines.append([r["scenario"], *(f"{per.get(name, 0):.0f}" for name, _ in CPU_COLUMNS),
                      f"{cpu['mesh_us_per_request']:.0f}", f"{cpu['machine_busy_cores']:.2f}",
                      f"{cpu['other_work_cores']:.2f}", f"{cpu.get('stolen_cores', 0):.2f}",
                      f"{cpu.get('idle_max_rps') or 0:,.0f}"])
    return head, lines


def describe_statuses(r: dict) -> str:
    return ", ".join(f"{n} x {s}" for s, n in sorted(r.get("statuses", {}).items()))


def memory_lines(mem: dict, peaks: dict[str, str]) -> list[tuple[str, str]]:
    out = []
    for name, e in mem.items():
        if not e or e.get("vm_hwm_kb") is None:
            out.append((name, "not running"))
            continue
        text = f"{e['vm_hwm_kb'] / 1024:.1f} MB"
        if e.get("children_max_vm_hwm_kb") is not None:
            text += f" (+{e['children']} children, largest {e['children_max_vm_hwm_kb'] / 1024:.1f} MB)"
        if peaks.get(name):
            text += f", reached during: {peaks[name]}"
        out.append((name, text))
    return out


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["oha-rps"] and len(args) == 2:
        print(int(read_oha(Path(args[1]))["rps"]))
    elif args[:1] == ["web"] and len(args) == 4:
        web(args[1].rstrip("/"), Path(args[2]), Path(args[3]))
    elif args[:1] == ["memory"] and len(args) >= 2:
        memory(Path(args[1]), args[2:])
    elif args[:1] == ["cpu"] and len(args) >= 2:
        cpu_snapshot(Path(args[1]), args[2:])
    elif args[:1] == ["table"] and len(args) == 4:
        table(Path(args[1]), Path(args[2]), Path(args[3]))
    elif args[:1] == ["compare"] and len(args) == 4:
        compare(Path(args[1]), Path(args[2]), Path(args[3]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    os.umask(0o022)
    main()
