"""The field's own linters pass: `snakemake --lint` (but for its conda/container advice, which a
pinned venv answers otherwise), `snakefmt --check` on every Snakefile, and ruff on the Python."""
import json
import subprocess

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
