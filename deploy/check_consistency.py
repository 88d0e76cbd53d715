#!/usr/bin/env python3
"""Holds the three ways of running Courtside in step: deploy/up.sh, docker-compose.yml, deploy/k8s/.

For every process it checks that they name the same image, the same environment variables and the
same ports (listen, ops, health checks and probes, service URLs), that the web image gets the same
template placeholders everywhere, that payments go to localstripe in compose and to Stripe in the
cluster with every credential in a Secret, and that deploy/README.md documents every variable
anything here reads:
- the Rust code: `std::env::var("NAME")` and every call of a helper that hands its argument on to
  one (`Env::or`, `Env::parsed`, `Env::file`, ... in any crate), with the name written in place or
  as a `const` of type `&str`; a read whose name cannot be resolved is itself reported;
- the scripts: a shell variable expanded with a default or a test (`${NAME:-...}`, `${NAME:+...}`)
  in deploy/ and .ci/, `os.environ` in deploy/'s Python, `${NAME}` in the Compose files, and
  `process.env.NAME` in the web app's Playwright and Vite configuration and e2e suite;
- up.sh's process environments (`up.sh --print-env`).
"Documented" means written in backticks in a table row of deploy/README.md (the reference; the
top-level README.md is the guide). Offline; needs PyYAML.
Run from anywhere: python3 deploy/check_consistency.py [--readme OTHER.md]
(deploy/test_check_consistency.py shows it failing on a README that lacks a variable).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from urllib.parse import urlparse

import yaml

ROOT = Path(__file__).resolve().parent.parent
PROCESSES = ["identity-svc", "coaching-svc", "booking-svc", "gym-svc", "gateway"]
# Set only when traces are wanted: up.sh passes it only when the caller sets it.
OPTIONAL_VARS = {"OTEL_EXPORTER_OTLP_ENDPOINT"}
URL_VARS = {"IDENTITY_URL": "identity-svc", "COACHING_URL": "coaching-svc", "BOOKING_URL": "booking-svc", "GYM_URL": "gym-svc"}
WEB_VARS = [
    "NGINX_LISTEN", "GATEWAY_UPSTREAM", "WEB_ROOT", "UPLOAD_DIR", "NGINX_SNIPPET_DIR", "NGINX_REAL_IP_FROM",
    "STRIPE_JS_URL",
]
# The web image's optional /stripe/ (deploy/nginx/localstripe.conf.template): set where a
# localstripe runs (compose), never in the cluster.
WEB_OPTIONAL_VARS = {"LOCALSTRIPE_UPSTREAM"}
LOCALSTRIPE_VARS = {"LOCALSTRIPE_UPSTREAM", "NGINX_SNIPPET_DIR"}
# Variables that carry a credential: in Kubernetes, only from a Secret.
SECRET_NAME = re.compile(r"SECRET|PASSWORD|^DATABASE_URL$|^REDIS_URL$|^SMTP_URL$")

# Read by the scripts but not settings of Courtside: the system's own, and values one script hands
# to a function of its own.
NOT_SETTINGS = {
    "HOME": "the user's home, set by the system",
    "PATH": "the command search path, set by the system",
    "STATE_LOCK_FD": "lib.sh: the descriptor of the state folder's lock, set by lock_state_dir",
    "BODY_FILE": "faults.sh: a temporary file of its own, removed by its EXIT trap",
}
SKIPPED_DIRS = {"target", "node_modules", "dist", ".git", ".state", ".state-bench", "venv", "test-results"}

problems: list[str] = []


def problem(msg: str) -> None:
    problems.append(msg)


def port_of(addr: str) -> int:
    return int(str(addr).rsplit(":", 1)[1])


def upsh_env() -> dict[str, dict[str, str]]:
    """Each process's environment as deploy/up.sh would start it, with every default."""
    clean = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/root")}
    out = subprocess.run(
        ["bash", str(ROOT / "deploy/up.sh"), "--print-env"], env=clean, check=True, capture_output=True, text=True
    ).stdout
    procs: dict[str, dict[str, str]] = {}
    current = None
    for line in out.splitlines():
        if m := re.fullmatch(r"\[(.+)\]", line):
            current = procs.setdefault(m.group(1), {})
        elif line and current is not None:
            key, _, value = line.partition("=")
            current[key] = value
    return procs


def load_yaml_docs(path: Path) -> list[dict]:
    with path.open() as f:
        return [d for d in yaml.safe_load_all(f) if d]


def check_ports(where: str, name: str, env: dict[str, str], up: dict[str, str]) -> None:
    for var in ("LISTEN_ADDR", "OPS_ADDR"):
        if var in env and port_of(env[var]) != port_of(up[var]):
            problem(f"{where} {name}: {var} port {port_of(env[var])} != up.sh's {port_of(up[var])}")
    for var, target in URL_VARS.items():
        if var in env and env[var]:
            url = urlparse(env[var])
            if url.port != port_of(up[var] if var in up else "x:0"):
                problem(f"{where} {name}: {var}={env[var]} port differs from up.sh's {up.get(var)}")
            if where != "up.sh" and url.hostname not in (target, f"{target}.courtside", f"{target}-headless"):
                problem(f"{where} {name}: {var}={env[var]} does not name the {target} service")


def check_names(where: str, name: str, names: set[str], up_names: set[str]) -> None:
    missing = up_names - names - OPTIONAL_VARS
    extra = names - up_names - OPTIONAL_VARS
    if missing:
        problem(f"{where} {name}: missing variables {sorted(missing)} that up.sh sets")
    if extra:
        problem(f"{where} {name}: variables {sorted(extra)} that up.sh does not set")


SCALABLE = ["identity-svc", "coaching-svc", "booking-svc", "gym-svc", "gateway"]


def check_compose_scales(compose: dict) -> None:
    """`docker compose up --scale NAME=N` works for every process and under Compose 1.29 and v2."""
    services = compose.get("services", {})
    for name in SCALABLE:
        svc = services.get(name, {})
        for key in ("container_name", "ports", "hostname"):
            if key in svc:
                problem(f"docker-compose.yml {name}: `{key}` stops `--scale {name}=N`; clients reach it by the service name")
    if "name" in compose:
        problem("docker-compose.yml: Compose 1.29 refuses a top-level `name:`; set COMPOSE_PROJECT_NAME in .env")
    env_file = ROOT / ".env"
    if not env_file.exists() or not re.search(r"^COMPOSE_PROJECT_NAME=\S+", env_file.read_text(), re.M):
        problem(".env beside docker-compose.yml must set COMPOSE_PROJECT_NAME")
    for dockerfile in sorted((ROOT / "deploy/docker").glob("*.Dockerfile")):
        if re.search(r"^#\s*syntax=", dockerfile.read_text(), re.M):
            problem(f"{dockerfile.relative_to(ROOT)}: a `# syntax=` line fetches a build frontend from a registry")
    for port in services.get("web", {}).get("ports", []):
        if not str(port).startswith("${PUBLISH_ADDRESS:-127.0.0.1}:"):
            problem(f"docker-compose.yml web: publishes {port}; it must default to 127.0.0.1 (PUBLISH_ADDRESS)")


def check_k8s_headless(by_kind: dict[str, dict[str, dict]], configmap: dict[str, str]) -> None:
    """Each gRPC service has a headless Service over its pods, and the clients' URLs name it."""
    services = by_kind.get("Service", {})
    for var, target in URL_VARS.items():
        headless = services.get(f"{target}-headless")
        deployment = by_kind.get("Deployment", {}).get(target, {})
        labels = deployment.get("spec", {}).get("template", {}).get("metadata", {}).get("labels", {})
        if headless is None:
            problem(f"deploy/k8s has no headless Service {target}-headless")
            continue
        spec = headless.get("spec", {})
        if spec.get("clusterIP") != "None":
            problem(f"k8s Service {target}-headless: must be headless (clusterIP: None)")
        if not spec.get("selector") or any(labels.get(k) != v for k, v in spec["selector"].items()):
            problem(f"k8s Service {target}-headless: selector {spec.get('selector')} does not select {target}'s pods")
        url = urlparse(configmap.get(var, ""))
        if url.hostname != f"{target}-headless":
            problem(f"k8s config {var}={configmap.get(var)} must name the headless Service {target}-headless")
        if url.port not in [p.get("port") for p in spec.get("ports", [])]:
            problem(f"k8s Service {target}-headless: no port {url.port} for {var}")


def load_k8s(k8s_dir: Path) -> dict[str, dict[str, dict]]:
    """Every manifest in deploy/k8s (the Secrets' example included), by kind and name."""
    by_kind: dict[str, dict[str, dict]] = {}
    for path in sorted(k8s_dir.glob("*.yaml")):
        if path.name != "kustomization.yaml":
            for d in load_yaml_docs(path):
                by_kind.setdefault(d["kind"], {})[d["metadata"]["name"]] = d
    return by_kind


# --- who may reach whom in the cluster -----------------------------------------------------------

NAME_LABEL = "app.kubernetes.io/name"
NAMESPACE_LABEL = "kubernetes.io/metadata.name"
# Not run by the manifests: the Services the Secrets' host names point at, over pods so labelled.
BACKING_STORES = {"postgres": ("DATABASE_URL", 5432), "redis": ("REDIS_URL", 6379)}
# Who may reach the ops ports (/metrics, /livez, /readyz): Prometheus's namespace.
MONITORING_NAMESPACE = "monitoring"


def selects(selector: dict | None, labels: dict[str, str]) -> bool:
    """Whether a label selector (matchLabels only; an empty one selects everything) selects labels."""
    selector = selector or {}
    if selector.get("matchExpressions"):
        return False  # not written here; a policy that needs one must teach this check first
    return all(labels.get(k) == v for k, v in (selector.get("matchLabels") or {}).items())


def peer_names(peer: dict) -> str:
    """A NetworkPolicy `from` entry as one word: `pod:gateway`, `namespace:monitoring`, `ip:...`,
    with `*` where the selector selects more than one named thing."""
    if "ipBlock" in peer:
        return f"ip:{peer['ipBlock'].get('cidr')}"
    if "namespaceSelector" in peer:
        labels = (peer["namespaceSelector"] or {}).get("matchLabels") or {}
        return f"namespace:{labels.get(NAMESPACE_LABEL, '*')}"
    labels = (peer.get("podSelector") or {}).get("matchLabels") or {}
    return f"pod:{labels.get(NAME_LABEL, '*')}"


def admitted(policies: list[dict], labels: dict[str, str], port: int, named: dict[str, int]) -> set[str]:
    """The peers the policies selecting a pod with these labels let reach its TCP port (`any` when
    a rule names no peer). Without any policy selecting the pod, everything may: {"any"}."""
    selecting = [
        p
        for p in policies
        if selects(p["spec"].get("podSelector"), labels) and "Ingress" in p["spec"].get("policyTypes", ["Ingress"])
    ]
    if not selecting:
        return {"any"}
    peers: set[str] = set()
    for policy in selecting:
        for rule in policy["spec"].get("ingress") or []:
            ports = rule.get("ports")
            if ports and not any(
                p.get("protocol", "TCP") == "TCP" and (named.get(p.get("port")) or p.get("port")) in (port, None)
                for p in ports
            ):
                continue
            peers |= {peer_names(peer) for peer in rule["from"]} if rule.get("from") else {"any"}
    return peers


def network_policy_problems(by_kind: dict[str, dict[str, dict]], up: dict[str, dict[str, str]]) -> list[str]:
    """The NetworkPolicies admit, to each process's pods, only the callers the code has: a service's
    gRPC port the processes whose environment names its `*_URL` (the gateway; booking-svc for
    coaching-svc), the gateway's HTTP port the web pods, web's port the Ingress controller's
    namespace, every ops port the monitoring namespace, PostgreSQL the processes that read
    DATABASE_URL and Redis those that read REDIS_URL; and a default deny covers everything else."""
    out: list[str] = []
    policies = list(by_kind.get("NetworkPolicy", {}).values())
    deny = [
        p
        for p in policies
        if p["spec"].get("podSelector") in ({}, None)
        and "Ingress" in p["spec"].get("policyTypes", [])
        and not p["spec"].get("ingress")
    ]
    if not deny:
        out.append("deploy/k8s: no NetworkPolicy denies ingress to every pod by default (podSelector: {}, no ingress rule)")
    others = [p for p in policies if p not in deny]

    def pod_of(name: str) -> tuple[dict[str, str], dict[str, int]]:
        template = by_kind.get("Deployment", {}).get(name, {}).get("spec", {}).get("template", {})
        labels = template.get("metadata", {}).get("labels", {})
        ports = {p["name"]: p["containerPort"] for c in template.get("spec", {}).get("containers", []) for p in c.get("ports", []) if "name" in p}
        return labels, ports

    def expect(what: str, labels: dict[str, str], named: dict[str, int], port: int, wanted: set[str]) -> None:
        got = admitted(policies, labels, port, named)
        if got != wanted:
            out.append(f"k8s NetworkPolicy: {what} port {port} admits {sorted(got)}, expected exactly {sorted(wanted)}")

    for name in by_kind.get("Deployment", {}):
        labels, _ = pod_of(name)
        if not any(selects(p["spec"].get("podSelector"), labels) for p in others):
            out.append(f"k8s Deployment {name}: no NetworkPolicy of its own selects its pods")

    for name, env in up.items():
        labels, named = pod_of(name)
        if not labels:
            continue
        listen, ops = port_of(env["LISTEN_ADDR"]), port_of(env["OPS_ADDR"])
        if name == "gateway":
            expect("gateway's HTTP", labels, named, listen, {"pod:web"})
        else:
            var = next(v for v, target in URL_VARS.items() if target == name)
            callers = {f"pod:{caller}" for caller, caller_env in up.items() if var in caller_env}
            expect(f"{name}'s gRPC", labels, named, listen, callers)
        expect(f"{name}'s ops", labels, named, ops, {f"namespace:{MONITORING_NAMESPACE}"})

    web_labels, web_ports = pod_of("web")
    if web_labels:
        for port in web_ports.values():
            got = admitted(policies, web_labels, port, web_ports)
            if not got or any(not p.startswith("namespace:") or p == "namespace:*" for p in got):
                out.append(f"k8s NetworkPolicy: web's port {port} admits {sorted(got)}, expected only the Ingress controller's namespace")

    for store, (var, port) in BACKING_STORES.items():
        clients = {f"pod:{name}" for name, env in up.items() if var in env}
        expect(store, {NAME_LABEL: store}, {}, port, clients)
    return out


def ingress_tls_problems(by_kind: dict[str, dict[str, dict]]) -> list[str]:
    """TLS ends at the Ingress (nginx in the web pod speaks plain HTTP): every host it serves has a
    certificate, and plain HTTP is redirected, so the controller's HSTS header covers every answer."""
    out = []
    for name, ingress in by_kind.get("Ingress", {}).items():
        spec = ingress.get("spec", {})
        covered = {h for tls in spec.get("tls", []) for h in tls.get("hosts", [])}
        for rule in spec.get("rules", []):
            if rule.get("host") not in covered:
                out.append(f"k8s Ingress {name}: host {rule.get('host')} has no TLS (spec.tls), so no HSTS either")
        annotations = ingress.get("metadata", {}).get("annotations", {})
        if str(annotations.get("nginx.ingress.kubernetes.io/force-ssl-redirect")).lower() != "true":
            out.append(f"k8s Ingress {name}: plain HTTP must be redirected (nginx.ingress.kubernetes.io/force-ssl-redirect: 'true')")
        if str(annotations.get("nginx.org/hsts")).lower() != "true":
            out.append(f"k8s Ingress {name}: HSTS must be asked of the controller (nginx.org/hsts: 'true')")
    return out


ROLES_SQL = "deploy/docker/postgres-roles.sql"


def extension_problems(root: Path) -> list[str]:
    """Every extension a migration creates is made beforehand by the administrator's script: a
    service's role may not create it in `public`."""
    create = re.compile(r"create\s+extension\s+(?:if\s+not\s+exists\s+)?\"?([a-z0-9_]+)", re.I)
    made = set(create.findall(without_comments((root / ROLES_SQL).read_text(), ("--",))))
    out = []
    for path in source_files(root, ["*/migrations/*.sql"]):
        for ext in create.findall(without_comments(path.read_text(), ("--",))):
            if ext.lower() not in made:
                out.append(f"{path.relative_to(root)} creates the extension {ext}, which {ROLES_SQL} does not make first")
    return out


# --- payments: localstripe in compose, Stripe in the cluster, keys in Secrets (issue 33) --------

COMPOSE_DEFAULT = re.compile(r"^\$\{[A-Z_][A-Z0-9_]*:?-([^}]*)\}$")


def compose_default(value: object) -> str:
    """`${NAME:-default}` -> default; anything else as it is."""
    m = COMPOSE_DEFAULT.fullmatch(str(value))
    return m.group(1) if m else str(value)


def payments_problems(compose: dict, by_kind: dict[str, dict[str, dict]]) -> list[str]:
    """Compose runs localstripe and points booking-svc, nginx's /stripe/ and localstripe's webhook at
    each other; the cluster runs none, talks to Stripe and reads every credential from a Secret; the
    gateway and nginx agree on where Stripe.js comes from (the Content-Security-Policy follows it)."""
    out: list[str] = []
    services = compose.get("services", {})
    env = {name: svc.get("environment", {}) or {} for name, svc in services.items()}
    ls = services.get("localstripe")
    if ls is None:
        out.append("docker-compose.yml has no localstripe service (the development payment provider)")
    else:
        api = urlparse(compose_default(env.get("booking-svc", {}).get("STRIPE_API_BASE", "")))
        if (api.hostname, api.port) != ("localstripe", 8420):
            out.append(f"docker-compose.yml booking-svc: STRIPE_API_BASE defaults to {api.geturl()!r}, not http://localstripe:8420")
        upstream = compose_default(env.get("web", {}).get("LOCALSTRIPE_UPSTREAM", ""))
        if upstream != "localstripe:8420":
            out.append(f"docker-compose.yml web: LOCALSTRIPE_UPSTREAM defaults to {upstream!r}, not localstripe:8420")
        command = [str(c) for c in ls.get("command", [])]
        hook = command[command.index("--webhook-url") + 1] if "--webhook-url" in command[:-1] else ""
        if hook != "http://web:8080/api/payments/webhook":
            out.append(f"docker-compose.yml localstripe: --webhook-url is {hook!r}, not nginx's http://web:8080/api/payments/webhook")
        if str(env.get("localstripe", {}).get("STRIPE_WEBHOOK_SECRET")) != str(env.get("booking-svc", {}).get("STRIPE_WEBHOOK_SECRET")):
            out.append("docker-compose.yml: localstripe signs with another STRIPE_WEBHOOK_SECRET than booking-svc verifies with")
    if str(env.get("web", {}).get("STRIPE_JS_URL")) != str(env.get("gateway", {}).get("STRIPE_JS_URL")):
        out.append("docker-compose.yml: web's STRIPE_JS_URL (the CSP) differs from the gateway's (what the browser loads)")

    configmap = by_kind.get("ConfigMap", {}).get("courtside-config", {}).get("data", {})
    for kind in ("Deployment", "Service", "StatefulSet"):
        if "localstripe" in by_kind.get(kind, {}):
            out.append(f"deploy/k8s: a {kind} localstripe; the cluster talks to Stripe (STRIPE_API_BASE)")
    if urlparse(str(configmap.get("STRIPE_API_BASE", ""))).hostname != "api.stripe.com":
        out.append(f"k8s config: STRIPE_API_BASE is {configmap.get('STRIPE_API_BASE')!r}, not Stripe's https://api.stripe.com")
    js_keys = {}
    for name, dep in by_kind.get("Deployment", {}).items():
        for container in dep["spec"]["template"]["spec"].get("containers", []):
            for e in container.get("env", []):
                source = e.get("valueFrom", {})
                if SECRET_NAME.search(e["name"]) and "secretKeyRef" not in source:
                    out.append(f"k8s {name}: {e['name']} carries a credential and must come from a Secret (secretKeyRef)")
                if e["name"] == "STRIPE_JS_URL":
                    js_keys[name] = (source.get("configMapKeyRef") or {}).get("key", e.get("value"))
    if len(set(js_keys.values())) > 1 or set(js_keys) & {"web", "gateway"} != {"web", "gateway"}:
        out.append(f"k8s: web and the gateway must read STRIPE_JS_URL from the same ConfigMap key, have {js_keys}")
    return out


# --- which variables the code and the scripts read ---------------------------------------------

RUST_DIRECT = re.compile(r"(?<![.\w])(?<!fn )(?:std::)?(?:env::)?var(?:_os)?\s*\(\s*([^,)]*?)\s*\)")
RUST_FN = re.compile(r"\bfn\s+(\w+)\s*(?:<[^>{]*>)?\s*\(([^)]*)\)")
RUST_CONST = re.compile(r"\b(?:const|static)\s+([A-Z][A-Z0-9_]*)\s*:\s*&(?:'static\s+)?str\s*=\s*\"([^\"]*)\"")
ENV_NAME = re.compile(r"[A-Z][A-Z0-9_]*")


def source_files(root: Path, patterns: list[str]) -> list[Path]:
    """Files under root matching any glob pattern, outside build output, dependencies and state."""
    found: set[Path] = set()
    for pattern in patterns:
        for path in root.glob(pattern):
            if path.is_file() and not SKIPPED_DIRS & set(path.relative_to(root).parts[:-1]):
                found.add(path)
    return sorted(found)


def without_comments(text: str, markers: tuple[str, ...]) -> str:
    """The text with each whole-line comment blanked (line numbers stay): a comment that names a
    variable is not a read of it."""
    return "\n".join("" if line.lstrip().startswith(markers) else line for line in text.split("\n"))


def rust_functions(text: str) -> list[tuple[str, list[str], str]]:
    """(name, parameter names, body) of each `fn` in a file; a body runs to the next `fn`."""
    found = list(RUST_FN.finditer(text))
    out = []
    for i, m in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(text)
        params = [p.split(":")[0].strip().removeprefix("mut ") for p in m.group(2).split(",") if ":" in p]
        out.append((m.group(1), params, text[m.end() : end]))
    return out


def rust_env_reads(root: Path) -> tuple[dict[str, set[str]], list[str]]:
    """The variables the Rust code reads at run time (build scripts excluded: cargo sets theirs),
    each with the files that read it, and the reads whose name could not be resolved."""
    files = {
        p: without_comments(p.read_text(), ("//", "/*", "*"))
        for p in source_files(root, ["**/*.rs"])
        if p.name != "build.rs"
    }
    consts: dict[str, set[str]] = {}
    other_consts: set[str] = set()
    for text in files.values():
        for name, value in RUST_CONST.findall(text):
            consts.setdefault(name, set()).add(value)
        other_consts.update(re.findall(r"\b(?:const|static)\s+([A-Z][A-Z0-9_]*)\s*:", text))

    # A helper reads the environment when it hands one of its parameters to `env::var` or to
    # another such helper (`Env::file` calls `self.required(name)`): found to a fixed point.
    functions = [f for text in files.values() for f in rust_functions(text)]
    readers: set[str] = set()
    while True:
        callees = r"(?<![.\w])(?:std::)?(?:env::)?var(?:_os)?" + "".join(rf"|\b{r}" for r in sorted(readers))
        call = re.compile(rf"(?:{callees})\s*\(\s*(\w+)\s*[,)]")
        grown = {name for name, params, body in functions if any(a in params for a in call.findall(body))}
        if grown <= readers:
            break
        readers |= grown

    reads: dict[str, set[str]] = {}
    unresolved: list[str] = []
    helper_call = None
    if readers:
        helper_call = re.compile(r"\.\s*(" + "|".join(sorted(readers)) + r")\s*(?:::<[^>]*>)?\s*\(\s*([^,)]*?)\s*[,)]")
    for path, text in files.items():
        where = str(path.relative_to(root))
        params_at = [(m.start(), [p.split(":")[0].strip() for p in m.group(2).split(",")]) for m in RUST_FN.finditer(text)]

        def params_before(offset: int) -> list[str]:
            earlier = [params for start, params in params_at if start < offset]
            return earlier[-1] if earlier else []

        calls = [(m.start(), m.group(1), True) for m in RUST_DIRECT.finditer(text)]
        if helper_call:
            calls += [(m.start(), m.group(2), False) for m in helper_call.finditer(text)]
        for offset, arg, direct in calls:
            line = text.count("\n", 0, offset) + 1
            if m := re.fullmatch(r'"([^"]*)"', arg):
                names = {m.group(1)}
            elif (ident := arg.rsplit("::", 1)[-1]) in consts:
                names = consts[ident]
            elif arg in params_before(offset):
                continue  # a helper handing its parameter on: its callers are read instead
            elif direct or (ENV_NAME.fullmatch(ident) and ident not in other_consts):
                unresolved.append(f"{where}:{line}: cannot tell which variable `{arg}` names")
                continue
            else:
                continue  # `.or(x)` of an Option or a Result, not the config helper
            for name in names:
                if not direct and not ENV_NAME.fullmatch(name):
                    continue  # a helper's name shared with another method, given a literal
                reads.setdefault(name, set()).add(where)
    return reads, unresolved


def script_env_reads(root: Path) -> dict[str, set[str]]:
    """The variables the scripts read from their environment, each with the files that read it."""
    kinds = [
        (["deploy/**/*.sh", ".ci/run"], ("#",), r"\$\{([A-Z_][A-Z0-9_]*):?[-=+?]"),
        (["deploy/**/*.py"], ("#",), r"\b(?:os\.)?(?:environ\.get\(|environ\[|getenv\()\s*[\"']([A-Z_][A-Z0-9_]*)[\"']"),
        (["docker-compose*.yml", "deploy/compose*.yml"], ("#",), r"\$\{([A-Z_][A-Z0-9_]*)"),
        (
            ["web/*.config.ts", "web/e2e/**/*.ts", "web/scripts/**/*.*js"],
            ("//", "/*", "*"),
            r"\b(?:process\.)?env(?:\.([A-Z_][A-Z0-9_]*)\b|\[[\"']([A-Z_][A-Z0-9_]*)[\"']\])(?!\s*=[^=])",
        ),
    ]
    this = {Path(__file__).resolve(), Path(__file__).resolve().with_name("test_check_consistency.py")}
    reads: dict[str, set[str]] = {}
    for patterns, comments, regex in kinds:
        for path in source_files(root, patterns):
            if path.resolve() in this:
                continue
            for m in re.finditer(regex, without_comments(path.read_text(), comments)):
                name = next(g for g in m.groups() if g)
                if name not in NOT_SETTINGS:
                    reads.setdefault(name, set()).add(str(path.relative_to(root)))
    return reads


def documented_in(readme: str) -> set[str]:
    """Every name in backticks in a table row of the README."""
    rows = [line for line in readme.splitlines() if line.lstrip().startswith("|")]
    return {name for row in rows for name in re.findall(r"`([A-Z_][A-Z0-9_]*)(?:=[^`]*)?`", row)}


def undocumented(readme: str, reads: dict[str, set[str]]) -> list[str]:
    """One line per variable that is read somewhere but in no table row of the README."""
    known = documented_in(readme)
    return [
        f"deploy/README.md does not document `{name}` in a table (read by {', '.join(sorted(reads[name]))})"
        for name in sorted(set(reads) - known)
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--readme", type=Path, default=ROOT / "deploy" / "README.md", help="the reference to check (deploy/README.md)"
    )
    args = parser.parse_args()
    version = tomllib.loads((ROOT / "Cargo.toml").read_text())["workspace"]["package"]["version"]
    up = upsh_env()
    if sorted(up) != sorted(PROCESSES):
        problem(f"up.sh --print-env lists {sorted(up)}, expected {PROCESSES}")
    up_names = {name: set(env) | (OPTIONAL_VARS & set(env)) for name, env in up.items()}

    # --- docker-compose.yml ------------------------------------------------------------------
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    published = [(n, p) for n, s in services.items() for p in s.get("ports", [])]
    if len(published) != 1 or published[0][0] != "web" or not str(published[0][1]).endswith(":8080"):
        problem(f"docker-compose.yml must publish exactly one port, web's 8080; it publishes {published}")
    compose_images = {}
    for name in PROCESSES:
        svc = services.get(name)
        if svc is None:
            problem(f"docker-compose.yml has no service {name}")
            continue
        image = f"courtside/{name}:{version}"
        compose_images[name] = svc.get("image")
        if svc.get("image") != image:
            problem(f"docker-compose.yml {name}: image {svc.get('image')} != {image}")
        build = svc.get("build", {})
        if build.get("dockerfile") != "deploy/docker/service.Dockerfile" or build.get("args", {}).get("BIN") != name:
            problem(f"docker-compose.yml {name}: must build deploy/docker/service.Dockerfile with BIN={name}")
        env = {k: str(v) for k, v in svc.get("environment", {}).items()}
        check_names("docker-compose.yml", name, set(env), up_names[name])
        check_ports("docker-compose.yml", name, env, up[name])
        ops = port_of(up[name]["OPS_ADDR"])
        test = " ".join(map(str, svc.get("healthcheck", {}).get("test", [])))
        if f":{ops}/readyz" not in test:
            problem(f"docker-compose.yml {name}: healthcheck must poll :{ops}/readyz, has {test!r}")
        mounts = [str(v).split(":")[1] for v in svc.get("volumes", [])]
        for var in ("JWT_PUBLIC_KEY_FILE", "JWT_PRIVATE_KEY_FILE"):
            if var in env and not any(env[var].startswith(m + "/") for m in mounts):
                problem(f"docker-compose.yml {name}: {var}={env[var]} is on no mounted volume")
    gw_env = services.get("gateway", {}).get("environment", {})
    web = services.get("web", {})
    web_env = {k: str(v) for k, v in web.get("environment", {}).items()}
    if sorted(set(web_env) - WEB_OPTIONAL_VARS) != sorted(WEB_VARS):
        problem(f"docker-compose.yml web: variables {sorted(set(web_env) - WEB_OPTIONAL_VARS)} != the template's {sorted(WEB_VARS)}")
    if web.get("image") != f"courtside/web:{version}":
        problem(f"docker-compose.yml web: image {web.get('image')} != courtside/web:{version}")
    if "GATEWAY_UPSTREAM" in web_env and port_of(web_env["GATEWAY_UPSTREAM"]) != port_of(up["gateway"]["LISTEN_ADDR"]):
        problem("docker-compose.yml web: GATEWAY_UPSTREAM port differs from the gateway's LISTEN_ADDR")
    gw_uploads = [v for v in services.get("gateway", {}).get("volumes", []) if str(v).split(":")[1] == gw_env.get("UPLOAD_DIR")]
    web_uploads = [v for v in web.get("volumes", []) if str(v).split(":")[1] == web_env.get("UPLOAD_DIR")]
    if not gw_uploads or not web_uploads or str(gw_uploads[0]).split(":")[0] != str(web_uploads[0]).split(":")[0]:
        problem("docker-compose.yml: the gateway's UPLOAD_DIR and web's UPLOAD_DIR must be the same volume")

    # --- deploy/k8s ---------------------------------------------------------------------------
    k8s_dir = ROOT / "deploy/k8s"
    by_kind = load_k8s(k8s_dir)
    configmap = by_kind.get("ConfigMap", {}).get("courtside-config", {}).get("data", {})
    secrets = {n: set(s.get("stringData", {}) | s.get("data", {})) for n, s in by_kind.get("Secret", {}).items()}
    kustomization = yaml.safe_load((k8s_dir / "kustomization.yaml").read_text())
    listed = set(kustomization.get("resources", []))
    expected = {p.name for p in k8s_dir.glob("*.yaml")} - {"kustomization.yaml", "secrets.example.yaml"}
    if listed != expected:
        problem(f"deploy/k8s/kustomization.yaml resources {sorted(listed)} != manifests {sorted(expected)}")

    def resolve(name: str, env_list: list[dict]) -> dict[str, str]:
        resolved = {}
        for e in env_list:
            if "value" in e:
                resolved[e["name"]] = str(e["value"])
            elif ref := e.get("valueFrom", {}).get("configMapKeyRef"):
                if ref["key"] not in configmap and not ref.get("optional"):
                    problem(f"k8s {name}: {e['name']} reads ConfigMap key {ref['key']} that config.yaml lacks")
                resolved[e["name"]] = str(configmap.get(ref["key"], ""))
            elif ref := e.get("valueFrom", {}).get("secretKeyRef"):
                if ref["key"] not in secrets.get(ref["name"], set()):
                    problem(f"k8s {name}: {e['name']} reads Secret {ref['name']}/{ref['key']}, not in secrets.example.yaml")
                resolved[e["name"]] = "<secret>"
        return resolved

    for name in PROCESSES:
        dep = by_kind.get("Deployment", {}).get(name)
        svc = by_kind.get("Service", {}).get(name)
        if dep is None or svc is None:
            problem(f"deploy/k8s has no Deployment and Service named {name}")
            continue
        container = dep["spec"]["template"]["spec"]["containers"][0]
        if container["image"] != compose_images.get(name):
            problem(f"k8s {name}: image {container['image']} != docker-compose.yml's {compose_images.get(name)}")
        env = resolve(name, container.get("env", []))
        check_names("k8s", name, set(env), up_names[name])
        check_ports("k8s", name, env, up[name])
        ports = {p["name"]: p["containerPort"] for p in container.get("ports", [])}
        listen, ops = port_of(up[name]["LISTEN_ADDR"]), port_of(up[name]["OPS_ADDR"])
        if sorted(ports.values()) != sorted([listen, ops]) or ports.get("ops") != ops:
            problem(f"k8s {name}: containerPorts {ports} != listen {listen} and ops {ops}")
        for probe, path in (("livenessProbe", "/livez"), ("readinessProbe", "/readyz")):
            get = container.get(probe, {}).get("httpGet", {})
            if get.get("path") != path or get.get("port") not in ("ops", ops):
                problem(f"k8s {name}: {probe} must GET {path} on the ops port, has {get}")
        if "resources" not in container or not {"requests", "limits"} <= set(container["resources"]):
            problem(f"k8s {name}: needs resource requests and limits")
        svc_ports = sorted(p["port"] for p in svc["spec"]["ports"])
        if svc_ports != sorted([listen, ops]):
            problem(f"k8s Service {name}: ports {svc_ports} != {sorted([listen, ops])}")
    for name in ("booking-svc", "gateway"):
        hpa = by_kind.get("HorizontalPodAutoscaler", {}).get(name)
        if not hpa or hpa["spec"]["scaleTargetRef"]["name"] != name:
            problem(f"deploy/k8s has no HorizontalPodAutoscaler for {name}")

    web_dep = by_kind.get("Deployment", {}).get("web")
    if web_dep is None:
        problem("deploy/k8s has no web Deployment")
    else:
        container = web_dep["spec"]["template"]["spec"]["containers"][0]
        env = resolve("web", container.get("env", []))
        if sorted(env) != sorted(WEB_VARS):
            problem(f"k8s web: variables {sorted(env)} != the template's {sorted(WEB_VARS)}")
        if container["image"] != web.get("image"):
            problem(f"k8s web: image {container['image']} != docker-compose.yml's {web.get('image')}")
        if "GATEWAY_UPSTREAM" in env and port_of(env["GATEWAY_UPSTREAM"]) != port_of(up["gateway"]["LISTEN_ADDR"]):
            problem("k8s web: GATEWAY_UPSTREAM port differs from the gateway's LISTEN_ADDR")
    if not by_kind.get("Ingress"):
        problem("deploy/k8s has no Ingress")

    # --- the nginx template, lib.sh and the web image -----------------------------------------
    template = (ROOT / "deploy/nginx/courtside.conf.template").read_text()
    placeholders = set(re.findall(r"\$\{([A-Z_]+)\}", template))
    if placeholders != set(WEB_VARS):
        problem(f"courtside.conf.template placeholders {sorted(placeholders)} != {sorted(WEB_VARS)}")
    # A password-reset link's query (?token=, in links mailed before the fragment form) must
    # reach no access log (issue 32): the page's own location logs nothing.
    reset_page = re.search(r"location = /reset-password \{([^}]*)\}", template)
    if not reset_page or not re.search(r"^\s*access_log off;", reset_page.group(1), re.M):
        problem("courtside.conf.template: /reset-password needs a location of its own with 'access_log off;'")
    lib = (ROOT / "deploy/lib.sh").read_text()
    m = re.search(r"NGINX_TEMPLATE_VARS=\(([^)]*)\)", lib)
    if not m or set(m.group(1).split()) != set(WEB_VARS):
        problem("deploy/lib.sh NGINX_TEMPLATE_VARS differs from the template's placeholders")
    dockerfile = (ROOT / "deploy/docker/web.Dockerfile").read_text()
    for var in WEB_VARS + sorted(WEB_OPTIONAL_VARS):
        if not re.search(rf"^\s*{var}=", dockerfile, re.M):
            problem(f"deploy/docker/web.Dockerfile does not set {var}")
    m = re.search(r'NGINX_ENVSUBST_FILTER="\^\(([^)]*)\)\$"', dockerfile)
    if not m or set(m.group(1).split("|")) != set(WEB_VARS):
        problem("deploy/docker/web.Dockerfile: NGINX_ENVSUBST_FILTER must name exactly the template's placeholders")
    # /stripe/: one template, rendered by up.sh (lib.sh) and by the web image (web-localstripe.sh).
    optional = set(re.findall(r"\$\{([A-Z_]+)\}", (ROOT / "deploy/nginx/localstripe.conf.template").read_text()))
    if optional != LOCALSTRIPE_VARS:
        problem(f"localstripe.conf.template placeholders {sorted(optional)} != {sorted(LOCALSTRIPE_VARS)}")
    entry = (ROOT / "deploy/docker/web-localstripe.sh").read_text()
    m = re.search(r"envsubst '([^']*)'", entry)
    if not m or set(re.findall(r"\$\{([A-Z_]+)\}", m.group(1))) != LOCALSTRIPE_VARS:
        problem(f"deploy/docker/web-localstripe.sh must render exactly {sorted(LOCALSTRIPE_VARS)}")
    m = re.search(r'localstripe\.conf\.template" ([A-Z_ ]+)', lib)
    if not m or set(m.group(1).split()) != LOCALSTRIPE_VARS:
        problem(f"deploy/lib.sh must render localstripe.conf.template with exactly {sorted(LOCALSTRIPE_VARS)}")
    if "include ${NGINX_SNIPPET_DIR}/optional/*.conf;" not in template:
        problem("courtside.conf.template: the server must include ${NGINX_SNIPPET_DIR}/optional/*.conf (/stripe/)")

    for p in payments_problems(compose, by_kind):
        problem(p)
    check_compose_scales(compose)
    check_k8s_headless(by_kind, configmap)
    for p in network_policy_problems(by_kind, up):
        problem(p)
    for p in ingress_tls_problems(by_kind):
        problem(p)
    for p in extension_problems(ROOT):
        problem(p)

    # --- README documents every variable ------------------------------------------------------
    readme = args.readme.read_text() if args.readme.exists() else ""
    reads, unresolved = rust_env_reads(ROOT)
    for name, files in script_env_reads(ROOT).items():
        reads.setdefault(name, set()).update(files)
    for name in set().union(*up_names.values()) | OPTIONAL_VARS:
        reads.setdefault(name, set()).add("deploy/up.sh --print-env")
    for p in unresolved + undocumented(readme, reads):
        problem(p)

    if problems:
        print(f"check_consistency: {len(problems)} problem(s):", file=sys.stderr)
        for p in problems:
            print(f"  - {p}", file=sys.stderr)
        return 1
    print(
        f"check_consistency: up.sh, docker-compose.yml and deploy/k8s agree on {len(PROCESSES)} processes "
        f"and the web image (images, variables, ports, probes); {args.readme} documents the "
        f"{len(reads)} variables the code and the scripts read"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
