"""The field's own linters pass: `snakemake --lint` (but for its conda/container advice, which a
pinned venv answers otherwise), `snakefmt --check` on every Snakefile, and ruff on the Python."""
import json
import os
import subprocess
import tomllib

import pytest
from conftest import BIN, REPO

# Snakemake's advice for rules without a conda environment or container: this project pins its
# software in requirements.lock and Debian packages instead.
NOT_APPLICABLE = "Specify a conda environment or container for each rule."


# `snakemake --lint json` prints text (its command line drops the json choice); Snakemake's Python
# API prints the JSON report.
LINT = """
from pathlib import Path
from snakemake.api import SnakemakeApi
from snakemake.settings.types import OutputSettings, ResourceSettings
with SnakemakeApi(OutputSettings()) as api:
    api.workflow(resource_settings=ResourceSettings(), snakefile=Path("Snakefile")).lint(json=True)
"""


def test_snakemake_lint_reports_nothing_else():
    run = subprocess.run([str(BIN / "python"), "-c", LINT], cwd=REPO, capture_output=True, text=True)
    report = json.loads(run.stdout)
    findings = [f"{item['for']}: {lint['title']}" for item in report["snakefiles"] + report["rules"]
                for lint in item["lints"] if lint["title"] != NOT_APPLICABLE]
    assert findings == []
    # and the command line agrees: it reports the advice alone
    run = subprocess.run([str(BIN / "snakemake"), "--lint"], cwd=REPO, capture_output=True, text=True)
    assert run.stdout.count("    * ") + run.stderr.count("    * ") == \
        sum(len(item["lints"]) for item in report["snakefiles"] + report["rules"])


def test_snakefmt_finds_every_snakefile_formatted():
    files = ["Snakefile"] + sorted(str(p.relative_to(REPO)) for p in (REPO / "workflow/rules").glob("*.smk"))
    run = subprocess.run([str(BIN / "snakefmt"), "--check", *files], cwd=REPO, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr + run.stdout


def test_ruff_passes():
    run = subprocess.run([str(BIN / "ruff"), "check", "--no-cache", "."], cwd=REPO, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


# --- import-linter: the package's layers (pyproject.toml's [tool.importlinter]) -----------------------

def lint_imports(*config):
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    return subprocess.run([str(BIN / "lint-imports"), "--no-cache", "--no-logo", *map(str, config)], cwd=REPO,
                          env=env, capture_output=True, text=True)


def contracts():
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]


def test_import_contracts_hold_over_every_module():
    run = lint_imports()
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"Contracts: {len(contracts())} kept, 0 broken." in run.stdout
    modules = len(list((REPO / "src/glossary").rglob("*.py")))
    assert f"Analyzed {modules} files" in run.stdout


def toml_contract(contract):
    return "[[tool.importlinter.contracts]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in contract.items())


@pytest.mark.parametrize("kind", ["forbidden", "layers"])
def test_import_contracts_break_on_a_wrong_import(tmp_path, kind):
    """Each contract as written, turned against imports the package has, is broken: it reads the
    imports it names (a `forbidden` of the whole package that read none would hold whatever it says)."""
    contract = next(c for c in contracts() if c["type"] == kind)
    if kind == "forbidden":
        contract = dict(contract, forbidden_modules=["glossary.prose"])     # imported by render, pagejob ...
    else:
        contract = dict(contract, layers=contract["layers"][::-1])          # the readers on top
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.importlinter]\nroot_package = "glossary"\n\n' + toml_contract(contract), encoding="utf-8")
    run = lint_imports(config)
    assert run.returncode == 1 and "Contracts: 0 kept, 1 broken." in run.stdout, run.stdout + run.stderr
