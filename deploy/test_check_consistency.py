#!/usr/bin/env python3
"""Shows that deploy/check_consistency.py finds the variables the code and the scripts read, and
fails, naming the variable, on a README that does not document one. Run by test.sh's static stage:
python3 deploy/test_check_consistency.py
"""

from __future__ import annotations

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
            ["README.md does not document `IN_PROSE` in a table (read by a.sh)"],
        )

    def test_the_checker_fails_naming_the_variable_a_readme_lacks(self):
        readme = (check_consistency.ROOT / "README.md").read_text()
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
        complaints = [line for line in run.stderr.splitlines() if "README.md does not document" in line]
        self.assertEqual(len(complaints), 1, run.stderr)
        self.assertIn(f"`{missing}`", complaints[0])
        self.assertIn(sorted(reads[missing])[0], complaints[0])

if __name__ == "__main__":
    unittest.main(verbosity=2)
