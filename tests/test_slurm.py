"""The same workflow on a real single-node Slurm on localhost (snakemake-executor-plugin-slurm,
profiles/slurm): the site it builds is byte-identical to the local build's, for this repository's
entries (the fixture dictionary's build: test_slurm_dictionary.py)."""
import os
import subprocess
import sys

import pytest
from conftest import BIN, REPO, copy_repo, tree_bytes

sys.path.insert(0, str(REPO / "scripts"))
import slurm_cluster  # noqa: E402

SLURM_LIB = BIN.parent / "slurm"     # Makefile: SLURM_LIB, from requirements-slurm.lock

pytestmark = [pytest.mark.slow, pytest.mark.longest,
              pytest.mark.skipif(slurm_cluster.available() is not None, reason=str(slurm_cluster.available()))]


def slurm_environ(env, src):
    """The cluster's environment, with the venv's programs and the plugin (which lives apart from
    the venv) besides."""
    assert (SLURM_LIB / "snakemake_executor_plugin_slurm").is_dir(), f"{SLURM_LIB}: run make test-setup"
    return dict(env, PATH=env["PATH"] + os.pathsep + str(BIN),      # the srun wrapper stays first
                PYTHONPATH=f"{src}{os.pathsep}{SLURM_LIB}")


def slurm_logs(root):
    """{folder under .snakemake/slurm_logs (rule_<name> or group_<name>_...): its logs' text}."""
    logs = (root / ".snakemake/slurm_logs").iterdir()
    return {d.name: "".join(p.read_text(errors="replace") for p in d.rglob("*.log")) for d in logs}


def test_site_built_through_slurm_is_byte_identical(built, tmp_path):
    work = copy_repo(tmp_path / "glossary")
    with slurm_cluster.cluster(tmp_path / "slurm") as env:
        # What `make slurm` runs: the build (its lock, events, publishing) with the Slurm profile.
        run = subprocess.run([str(BIN / "python"), "-m", "glossary.build", "--profile", "profiles/slurm", "--",
                              "--slurm-keep-successful-logs"], cwd=work, env=slurm_environ(env, work / "src"),
                             capture_output=True, text=True, timeout=1800)
        out = run.stdout + run.stderr
        assert run.returncode == 0, out[-4000:]
    assert "site published" in out and "] attention: tokenize the corpus, train the model, export the CSVs" in out
    # Training ran inside a Slurm job, and passed numeric.require() there (or it had failed).
    in_slurm = "".join(slurm_logs(work).values())
    assert "(Rule: compute)" in in_slurm
    # the light rules (localrule: True) ran on the submit host: no Slurm job, and their logs are there
    for rule in ("catalog", "search_index", "section_b00", "notebook"):
        assert f"(Rule: {rule})" not in in_slurm, f"{rule} ran as a Slurm job"
    assert (work / "logs/catalog/catalog.log").is_file() and (work / "logs/section/b00.log").is_file()
    assert "[B-train]" in (work / "logs/compute/attention.log").read_text()
    local, through_slurm = tree_bytes(built[0] / "site"), tree_bytes(work / "site")
    assert sorted(through_slurm) == sorted(local)
    assert [name for name in local if local[name] != through_slurm[name]] == []
