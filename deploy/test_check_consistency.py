#!/usr/bin/env python3
"""Shows that deploy/check_consistency.py finds the variables the code and the scripts read, and
fails, naming the variable, on a README that does not document one. Run by test.sh's static stage:
python3 deploy/test_check_consistency.py
"""

from __future__ import annotations

import copy
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import check_consistency  # noqa: E402

CONFIG_HELPERS = """
    //! A config reader shaped like proto's.
    pub struct Env { problems: Vec<String> }

    impl Env {
        /// A variable that must be set.
        pub fn required(&mut self, name: &str) -> String {
            std::env::var(name).unwrap_or_default()
        }

        /// A variable with a default.
        pub fn or(&mut self, name: &str, default: &str) -> String {
            std::env::var(name).ok().unwrap_or_else(|| default.to_owned())
        }

        /// The contents of the file a variable names.
        pub fn file(&mut self, name: &str) -> String {
            let path = self.required(name);
            std::fs::read_to_string(path).unwrap_or_default()
        }
    }
"""


def tree(files: dict[str, str]) -> Path:
    """A throw-away checkout holding these files."""
    root = Path(tempfile.mkdtemp(prefix="check-consistency-"))
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


class TheCheckerFindsWhatTheRustCodeReads(unittest.TestCase):
    def test_names_given_to_any_config_helper_in_place_or_as_a_constant_are_found(self):
        root = tree(
            {
                "shared/src/config.rs": CONFIG_HELPERS,
                "svc/src/config.rs": """
                    const DEADLINE: &str = "SVC_DEADLINE_MS";
                    const RETRIES: u32 = 3;
                    pub fn load(env: &mut Env) {
                        let url = env.or("SVC_URL", "http://127.0.0.1:1");
                        let key = env.file("SVC_KEY_FILE");
                        let deadline = env.or(DEADLINE, "3000");
                        let fallback = Some(1).or(None).or(RETRIES);
                    }
                """,
                "svc/src/events.rs": 'fn host() -> Option<String> { std::env::var("SVC_HOST").ok() }\n',
            }
        )
        reads, unresolved = check_consistency.rust_env_reads(root)
        self.assertEqual(sorted(reads), ["SVC_DEADLINE_MS", "SVC_HOST", "SVC_KEY_FILE", "SVC_URL"])
        self.assertEqual(reads["SVC_URL"], {"svc/src/config.rs"})
        self.assertEqual(unresolved, [])

    def test_build_scripts_and_comments_are_not_reads(self):
        root = tree(
            {
                "shared/src/config.rs": CONFIG_HELPERS,
                "shared/build.rs": 'fn main() { std::env::var_os("CARGO_FEATURE_CLIENT"); }\n',
                "svc/src/lib.rs": '/// Reads `env.or("ONLY_IN_A_COMMENT", "")` one day.\npub fn nothing() {}\n',
            }
        )
        self.assertEqual(check_consistency.rust_env_reads(root), ({}, []))

    def test_a_read_whose_name_cannot_be_resolved_is_reported_with_its_place(self):
        root = tree({"svc/src/lib.rs": 'pub fn port(n: u8) {\n    let key = format!("PORT_{n}");\n    std::env::var(key);\n}\n'})
        reads, unresolved = check_consistency.rust_env_reads(root)
        self.assertEqual(reads, {})
        self.assertEqual(unresolved, ["svc/src/lib.rs:3: cannot tell which variable `key` names"])

    def test_the_real_tree_reads_the_deadlines_that_were_once_undocumented(self):
        reads, unresolved = check_consistency.rust_env_reads(check_consistency.ROOT)
        self.assertIn("GRPC_DEADLINE_MS", reads)
        self.assertIn("COACHING_TIMEOUT_MS", reads)
        self.assertEqual(unresolved, [])


class TheCheckerFindsWhatTheScriptsRead(unittest.TestCase):
    def test_shell_defaults_python_environ_compose_and_playwright_reads_are_found(self):
        root = tree(
            {
                "deploy/up.sh": """
                    # ${COMMENTED_OUT:-1} is not a read
                    PORT="${PORT:-8080}"
                    [[ -n "${FLAG:+x}" ]] && echo "${lowercase:-} ${RESULT[$stage]:-} $PLAIN"
                    flock "${STATE_LOCK_FD:-3}"
                """,
                "deploy/tool/run.py": 'import os\nos.environ.get("PY_SETTING", "1")\nos.environ["PY_REQUIRED"]\n',
                "docker-compose.yml": "services:\n  db:\n    environment:\n      PASSWORD: ${DB_SECRET:-dev}\n",
                "web/playwright.config.ts": "const url = process.env.TS_URL ?? '';\nprocess.env.TZ = 'UTC';\n",
            }
        )
        reads = check_consistency.script_env_reads(root)
        self.assertEqual(sorted(reads), ["DB_SECRET", "FLAG", "PORT", "PY_REQUIRED", "PY_SETTING", "TS_URL"])


class TheReadmeMustDocumentEveryVariable(unittest.TestCase):
    def test_a_variable_named_only_outside_a_table_is_undocumented(self):
        readme = "Set `IN_PROSE` to taste.\n\n| variable | meaning |\n|---|---|\n| `IN_TABLE`, `ALSO=1` | yes |\n"
        reads = {"IN_PROSE": {"a.sh"}, "IN_TABLE": {"b.sh"}, "ALSO": {"c.sh"}}
        self.assertEqual(
            check_consistency.undocumented(readme, reads),
            ["deploy/README.md does not document `IN_PROSE` in a table (read by a.sh)"],
        )

    def test_the_checker_fails_naming_the_variable_a_readme_lacks(self):
        readme = (check_consistency.ROOT / "deploy" / "README.md").read_text()
        reads, _ = check_consistency.rust_env_reads(check_consistency.ROOT)
        # A variable the Rust code reads and the README documents in one row, alone.
        rows: dict[str, list[str]] = {}
        for line in readme.splitlines(keepends=True):
            for name in check_consistency.documented_in(line):
                rows.setdefault(name, []).append(line)
        alone = {name for name, lines in rows.items() if len(lines) == 1 and check_consistency.documented_in(lines[0]) == {name}}
        missing = sorted(alone & set(reads))[0]
        lacking = Path(tempfile.mkdtemp(prefix="check-consistency-")) / "README.md"
        lacking.write_text(readme.replace(rows[missing][0], ""))
        run = subprocess.run(
            [sys.executable, str(HERE / "check_consistency.py"), "--readme", str(lacking)],
            capture_output=True,
            text=True,
        )
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        complaints = [line for line in run.stderr.splitlines() if "deploy/README.md does not document" in line]
        self.assertEqual(len(complaints), 1, run.stderr)
        self.assertIn(f"`{missing}`", complaints[0])
        self.assertIn(sorted(reads[missing])[0], complaints[0])

class TheNetworkPoliciesAdmitOnlyTheCallersTheCodeHas(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.up = check_consistency.upsh_env()
        cls.k8s = check_consistency.load_k8s(check_consistency.ROOT / "deploy/k8s")

    def problems(self, k8s: dict, up: dict | None = None) -> list[str]:
        return check_consistency.network_policy_problems(k8s, up or self.up)

    def policy(self, k8s: dict, name: str) -> dict:
        return k8s["NetworkPolicy"][name]["spec"]

    def test_the_manifests_admit_exactly_the_callers_of_each_port(self):
        self.assertEqual(self.problems(self.k8s), [])
        self.assertEqual(check_consistency.ingress_tls_problems(self.k8s), [])

    def test_a_service_port_open_to_a_process_that_is_not_its_client_is_named(self):
        k8s = copy.deepcopy(self.k8s)
        self.policy(k8s, "gym-svc")["ingress"][0]["from"].append({"podSelector": {"matchLabels": {"app.kubernetes.io/name": "booking-svc"}}})
        self.assertEqual(
            self.problems(k8s),
            ["k8s NetworkPolicy: gym-svc's gRPC port 50054 admits ['pod:booking-svc', 'pod:gateway'], expected exactly ['pod:gateway']"],
        )

    def test_a_rule_that_names_no_caller_opens_the_port_to_everyone(self):
        k8s = copy.deepcopy(self.k8s)
        del self.policy(k8s, "identity-svc")["ingress"][0]["from"]
        self.assertEqual(
            self.problems(k8s),
            ["k8s NetworkPolicy: identity-svc's gRPC port 50051 admits ['any'], expected exactly ['pod:gateway']"],
        )

    def test_a_new_grpc_client_in_the_code_needs_its_way_through_the_policy(self):
        up = copy.deepcopy(self.up)
        up["identity-svc"]["COACHING_URL"] = "http://127.0.0.1:50052"
        self.assertEqual(
            self.problems(self.k8s, up),
            [
                "k8s NetworkPolicy: coaching-svc's gRPC port 50052 admits ['pod:booking-svc', 'pod:gateway'], "
                "expected exactly ['pod:booking-svc', 'pod:gateway', 'pod:identity-svc']"
            ],
        )

    def test_a_deployment_without_a_policy_of_its_own_is_named_and_unreachable(self):
        k8s = copy.deepcopy(self.k8s)
        del k8s["NetworkPolicy"]["booking-svc"]
        self.assertEqual(
            self.problems(k8s),
            [
                "k8s Deployment booking-svc: no NetworkPolicy of its own selects its pods",
                "k8s NetworkPolicy: booking-svc's gRPC port 50053 admits [], expected exactly ['pod:gateway']",
                "k8s NetworkPolicy: booking-svc's ops port 9103 admits [], expected exactly ['namespace:monitoring']",
            ],
        )

    def test_without_the_default_deny_the_stores_are_open_to_everyone(self):
        k8s = copy.deepcopy(self.k8s)
        del k8s["NetworkPolicy"]["default-deny-ingress"]
        del k8s["NetworkPolicy"]["redis"]
        problems = self.problems(k8s)
        self.assertIn("deploy/k8s: no NetworkPolicy denies ingress to every pod by default (podSelector: {}, no ingress rule)", problems)
        self.assertIn(
            "k8s NetworkPolicy: redis port 6379 admits ['any'], expected exactly "
            "['pod:booking-svc', 'pod:coaching-svc', 'pod:gateway', 'pod:gym-svc', 'pod:identity-svc']",
            problems,
        )

    def test_postgres_open_to_the_gateway_which_has_no_database_is_named(self):
        k8s = copy.deepcopy(self.k8s)
        self.policy(k8s, "postgres")["ingress"][0]["from"].append({"podSelector": {"matchLabels": {"app.kubernetes.io/name": "gateway"}}})
        self.assertEqual(
            self.problems(k8s),
            [
                "k8s NetworkPolicy: postgres port 5432 admits ['pod:booking-svc', 'pod:coaching-svc', 'pod:gateway', "
                "'pod:gym-svc', 'pod:identity-svc'], expected exactly ['pod:booking-svc', 'pod:coaching-svc', "
                "'pod:gym-svc', 'pod:identity-svc']"
            ],
        )

    def test_an_ops_port_open_to_the_pods_of_the_namespace_is_named(self):
        k8s = copy.deepcopy(self.k8s)
        self.policy(k8s, "gateway")["ingress"][1]["from"] = [{"podSelector": {}}]
        self.assertEqual(
            self.problems(k8s),
            ["k8s NetworkPolicy: gateway's ops port 9100 admits ['pod:*'], expected exactly ['namespace:monitoring']"],
        )

    def test_an_ingress_host_without_tls_has_no_hsts(self):
        k8s = copy.deepcopy(self.k8s)
        del k8s["Ingress"]["courtside"]["spec"]["tls"]
        self.assertEqual(
            check_consistency.ingress_tls_problems(k8s),
            ["k8s Ingress courtside: host courtside.example.com has no TLS (spec.tls), so no HSTS either"],
        )


class PaymentsGoToLocalstripeInComposeAndToStripeInTheCluster(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import yaml

        cls.compose = yaml.safe_load((check_consistency.ROOT / "docker-compose.yml").read_text())
        cls.k8s = check_consistency.load_k8s(check_consistency.ROOT / "deploy/k8s")

    def problems(self, compose: dict | None = None, k8s: dict | None = None) -> list[str]:
        return check_consistency.payments_problems(compose or self.compose, k8s or self.k8s)

    def env(self, k8s: dict, name: str) -> list[dict]:
        return k8s["Deployment"][name]["spec"]["template"]["spec"]["containers"][0]["env"]

    def test_the_real_files_agree(self):
        self.assertEqual(self.problems(), [])

    def test_a_stripe_key_from_the_configmap_is_named(self):
        k8s = copy.deepcopy(self.k8s)
        for e in self.env(k8s, "booking-svc"):
            if e["name"] == "STRIPE_SECRET_KEY":
                e["valueFrom"] = {"configMapKeyRef": {"name": "courtside-config", "key": "STRIPE_SECRET_KEY"}}
        self.assertEqual(
            self.problems(k8s=k8s),
            ["k8s booking-svc: STRIPE_SECRET_KEY carries a credential and must come from a Secret (secretKeyRef)"],
        )

    def test_a_webhook_secret_written_in_the_manifest_is_named(self):
        k8s = copy.deepcopy(self.k8s)
        for e in self.env(k8s, "booking-svc"):
            if e["name"] == "STRIPE_WEBHOOK_SECRET":
                e.pop("valueFrom")
                e["value"] = "whsec_in-the-open"
        self.assertEqual(
            self.problems(k8s=k8s),
            ["k8s booking-svc: STRIPE_WEBHOOK_SECRET carries a credential and must come from a Secret (secretKeyRef)"],
        )

    def test_a_localstripe_in_the_cluster_is_named(self):
        k8s = copy.deepcopy(self.k8s)
        k8s["Deployment"]["localstripe"] = copy.deepcopy(k8s["Deployment"]["gym-svc"])
        k8s["ConfigMap"]["courtside-config"]["data"]["STRIPE_API_BASE"] = "http://localstripe:8420"
        self.assertEqual(
            self.problems(k8s=k8s),
            [
                "deploy/k8s: a Deployment localstripe; the cluster talks to Stripe (STRIPE_API_BASE)",
                "k8s config: STRIPE_API_BASE is 'http://localstripe:8420', not Stripe's https://api.stripe.com",
            ],
        )

    def test_nginx_proxying_to_another_port_than_booking_svc_calls_is_named(self):
        compose = copy.deepcopy(self.compose)
        compose["services"]["web"]["environment"]["LOCALSTRIPE_UPSTREAM"] = "${LOCALSTRIPE_UPSTREAM-localstripe:8421}"
        self.assertEqual(
            self.problems(compose=compose),
            ["docker-compose.yml web: LOCALSTRIPE_UPSTREAM defaults to 'localstripe:8421', not localstripe:8420"],
        )

    def test_a_webhook_signed_with_another_secret_or_sent_elsewhere_is_named(self):
        compose = copy.deepcopy(self.compose)
        compose["services"]["localstripe"]["environment"]["STRIPE_WEBHOOK_SECRET"] = "whsec_other"
        command = compose["services"]["localstripe"]["command"]
        command[command.index("--webhook-url") + 1] = "http://gateway:8000/api/payments/webhook"
        self.assertEqual(
            self.problems(compose=compose),
            [
                "docker-compose.yml localstripe: --webhook-url is 'http://gateway:8000/api/payments/webhook', not nginx's http://web:8080/api/payments/webhook",
                "docker-compose.yml: localstripe signs with another STRIPE_WEBHOOK_SECRET than booking-svc verifies with",
            ],
        )

    def test_a_csp_that_does_not_follow_the_gateways_stripe_js_is_named(self):
        compose = copy.deepcopy(self.compose)
        compose["services"]["web"]["environment"]["STRIPE_JS_URL"] = "https://js.stripe.com/v3/"
        k8s = copy.deepcopy(self.k8s)
        for e in self.env(k8s, "web"):
            if e["name"] == "STRIPE_JS_URL":
                e["valueFrom"]["configMapKeyRef"]["key"] = "OTHER_JS_URL"
        self.assertEqual(
            self.problems(compose=compose, k8s=k8s),
            [
                "docker-compose.yml: web's STRIPE_JS_URL (the CSP) differs from the gateway's (what the browser loads)",
                "k8s: web and the gateway must read STRIPE_JS_URL from the same ConfigMap key, have "
                "{'gateway': 'STRIPE_JS_URL', 'web': 'OTHER_JS_URL'}",
            ],
        )


class TheAdministratorMakesEveryExtensionTheMigrationsName(unittest.TestCase):
    def test_an_extension_the_roles_script_does_not_make_is_named(self):
        root = tree(
            {
                check_consistency.ROLES_SQL: "-- create extension postgis;\ncreate extension if not exists cube;\n",
                "svc/migrations/1_a.sql": "create extension if not exists cube;\ncreate extension postgis;\n",
            }
        )
        self.assertEqual(
            check_consistency.extension_problems(root),
            [f"svc/migrations/1_a.sql creates the extension postgis, which {check_consistency.ROLES_SQL} does not make first"],
        )

    def test_the_real_migrations_find_theirs_made(self):
        self.assertEqual(check_consistency.extension_problems(check_consistency.ROOT), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
