#!/usr/bin/env python3
"""Fuzz the running mesh against its own OpenAPI document, once per role.

Registers a client, a coach and a gym through the API, signs in as the admin, and runs schemathesis
as each of them and as nobody, checking that no answer is a 5xx, every answer matches the documented
schema, every error carries a `detail` (hooks.py), every request the document calls valid is
accepted (positive_data_acceptance) and every request it calls invalid is refused with a 4xx
(negative_data_rejection); schemathesis.toml says which statuses count as each, and why.

Reads the mesh from the environment (deploy/test.sh sets these from the mesh's mesh.env):
  BASE_URL        http://127.0.0.1:18080 (nginx)
  ADMIN_EMAIL     the admin up.sh created
  ADMIN_PASSWORD
Tuning (all optional):
  ST_MAX_EXAMPLES   cases per operation and phase (default 10)
  ST_PHASES         default examples,coverage,fuzzing
  ST_CHECKS         default not_a_server_error,response_schema_conformance,error_has_detail,
                    positive_data_acceptance,negative_data_rejection
  ST_WORKERS        default 1 (Hypothesis's caches are not thread-safe: with 2 workers a run can fail
                    with a KeyError in its lambda-source cache while drawing for if/then schemas)
  ST_ROLES          default "anonymous client coach gym admin"
  ST_REPORT_DIR     JUnit reports (default: ./schemathesis-report)
  ST_SEED           default 1 (reproducible runs)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECKS = [
    "not_a_server_error",
    "response_schema_conformance",
    "error_has_detail",
    "positive_data_acceptance",
    "negative_data_rejection",
]


def call(method: str, url: str, body: dict | None = None, token: str | None = None) -> tuple[int, object]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("Accept", "application/json")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            status, raw = resp.status, resp.read()
    except urllib.error.HTTPError as err:
        status, raw = err.code, err.read()
    try:
        return status, json.loads(raw or b"null")
    except ValueError:
        return status, raw.decode(errors="replace")


def without_idempotency_keys(spec: dict) -> dict:
    """The document with no operation taking an `Idempotency-Key` header."""
    spec = json.loads(json.dumps(spec))
    for item in spec.get("paths", {}).values():
        for operation in item.values():
            if isinstance(operation, dict) and "parameters" in operation:
                operation["parameters"] = [
                    p
                    for p in operation["parameters"]
                    if not (p.get("in") == "header" and str(p.get("name", "")).lower() == "idempotency-key")
                ]
    return spec


def api_root(base_url: str, spec: dict) -> str:
    """Where the document's paths are rooted: its first server (relative to the origin), else the origin."""
    servers = spec.get("servers") or []
    if servers and isinstance(servers[0], dict) and servers[0].get("url"):
        return urllib.parse.urljoin(base_url + "/", servers[0]["url"]).rstrip("/")
    if any(p.startswith("/api/") for p in spec.get("paths", {})):
        return base_url
    return base_url + "/api"


def sign_up(api: str, role: str) -> str:
    email = f"st-{role}-{uuid.uuid4().hex[:10]}@courtside.test"
    body = {
        "email": email,
        "password": "Schemathesis-" + uuid.uuid4().hex[:12],
        "full_name": f"Schemathesis {role.title()}",
        "phone": "555-0100",
        "role": role,
    }
    status, answer = call("POST", f"{api}/auth/register", body)
    if status not in (200, 201) or not isinstance(answer, dict) or "token" not in answer:
        sys.exit(f"registering a {role} answered {status}: {answer!r:.300}")
    return answer["token"]


def sign_in(api: str, email: str, password: str) -> str:
    status, answer = call("POST", f"{api}/auth/login", {"email": email, "password": password})
    if status != 200 or not isinstance(answer, dict) or "token" not in answer:
        sys.exit(f"signing in as the admin {email} answered {status}: {answer!r:.300}")
    return answer["token"]


def throwaway_admin(api: str, seeded_token: str) -> str:
    """A second admin for the fuzzer, so nothing it does can lock the seeded admin out."""
    email = f"st-admin-{uuid.uuid4().hex[:10]}@courtside.test"
    password = "Schemathesis-" + uuid.uuid4().hex[:12]
    body = {"email": email, "password": password, "full_name": "Schemathesis Admin", "role": "admin"}
    status, answer = call("POST", f"{api}/admin/users", body, token=seeded_token)
    if status != 201:
        sys.exit(f"creating the fuzzing admin answered {status}: {answer!r:.300}")
    return sign_in(api, email, password)


def main() -> int:
    base_url = os.environ.get("BASE_URL", "http://127.0.0.1:18080").rstrip("/")
    schema_url = f"{base_url}/api/openapi.json"
    status, spec = call("GET", schema_url)
    if status != 200 or not isinstance(spec, dict):
        sys.exit(f"{schema_url} answered {status}: the gateway must publish its OpenAPI document there")
    api = api_root(base_url, spec)
    print(f"schema {schema_url}: {len(spec.get('paths', {}))} paths, requests go to {api}", flush=True)

    roles = os.environ.get("ST_ROLES", "anonymous client coach gym admin").split()
    tokens: dict[str, str | None] = {}
    for role in roles:
        if role == "anonymous":
            tokens[role] = None
        elif role == "admin":
            seeded = sign_in(api, os.environ["ADMIN_EMAIL"], os.environ["ADMIN_PASSWORD"])
            tokens[role] = throwaway_admin(api, seeded)
        else:
            tokens[role] = sign_up(api, role)

    st = shutil.which("schemathesis") or str(Path(sys.executable).parent / "schemathesis")
    report_dir = Path(os.environ.get("ST_REPORT_DIR", "schemathesis-report")).resolve()
    report_dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env["SCHEMATHESIS_HOOKS"] = "hooks"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH")]))

    # An Idempotency-Key names one action, and a key used again with another request is a 422: the
    # generator repeats its few strings across cases in every phase, so the document it fuzzes
    # leaves the header out. The mesh tests (gateway/tests/mesh/idempotency.rs) cover every key rule.
    fuzzed = report_dir / "openapi-without-idempotency-keys.json"
    fuzzed.write_text(json.dumps(without_idempotency_keys(spec)))

    common = [
        "--config-file", str(HERE / "schemathesis.toml"),
        "run", str(fuzzed),
        "--url", api,
        "--checks", os.environ.get("ST_CHECKS", ",".join(CHECKS)),
        "--phases", os.environ.get("ST_PHASES", "examples,coverage,fuzzing"),
        "--max-examples", os.environ.get("ST_MAX_EXAMPLES", "10"),
        "--workers", os.environ.get("ST_WORKERS", "1"),
        "--seed", os.environ.get("ST_SEED", "1"),
        "--generation-database", "none",
        "--request-timeout", "15",
        "--suppress-health-check", "all",
        "--no-color",
    ]
    failed = []
    for role, token in tokens.items():
        cmd = [st, *common, "--report", "junit", "--report-junit-path", str(report_dir / f"{role}.xml")]
        if token:
            # Signing out would revoke the very token the rest of the run uses. The live stream of
            # notifications never ends while its token is good: its rules (401 without one, events,
            # the end at sign-out) are covered by the mesh tests instead.
            cmd += [
                "-H", f"Authorization: Bearer {token}",
                "--exclude-path-regex", r"/auth/logout$|/notifications/stream$",
            ]
        if role == "admin":
            # The fuzzer learns the admin's own id from GET /admin/users; a password it then sets
            # through PUT /admin/users/{id} ends its own session (by design) and the rest of the
            # run would be 401s. That route's rules are covered by the mesh tests instead.
            cmd += ["--exclude-operation-id", "update_user"]
        print(f"\n=== schemathesis as {role} ===", flush=True)
        started = time.monotonic()
        rc = subprocess.call(cmd, env=env, cwd=report_dir)
        print(f"=== {role}: {'passed' if rc == 0 else 'FAILED'} in {time.monotonic() - started:.0f}s ===", flush=True)
        if rc != 0:
            failed.append(role)

    passed = len(tokens) - len(failed)
    print(f"\nschemathesis roles: {passed} passed, {len(failed)} failed", flush=True)
    if failed:
        print(f"failed as: {', '.join(failed)} (JUnit reports in {report_dir})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
