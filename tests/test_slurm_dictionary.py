"""`make slurm SOURCE=... OUT=...` on the fixture dictionary, on a throwaway single-node Slurm: each
batch of each stage a Slurm job, the site byte-identical to the local build's.  A module apart from
test_slurm.py so that pytest-xdist (--dist loadfile) runs the two Slurm builds on two workers."""
import os
import re
import subprocess

import pytest
from conftest import BIN, REPO, tree_bytes
from test_dictionary_build import copy_fixture, fixture_build
from test_slurm import SLURM_LIB, slurm_cluster, slurm_environ, slurm_logs

pytestmark = [pytest.mark.slow, pytest.mark.longest,
              pytest.mark.skipif(slurm_cluster.available() is not None, reason=str(slurm_cluster.available()))]


def test_dictionary_built_through_slurm_is_byte_identical(tmp_path, tmp_path_factory):
    """`make slurm SOURCE=... OUT=...` on the fixture dictionary (without its demos, as the
    dictionary's own tests build it): each batch of each stage a Slurm job, the site the same
    bytes as `make site SOURCE=... OUT=...` gives."""
    local = fixture_build(tmp_path_factory)[2]      # the local build, of another copy in another folder
    source = copy_fixture(tmp_path / "dictionary")
    out = tmp_path / "slurm-out"
    with slurm_cluster.cluster(tmp_path / "slurm") as env:
        # make's setup prerequisites left out (-o): they would reinstall the venv the tests run in
        skip = ["-o", "setup", "-o", os.path.relpath(SLURM_LIB / ".installed", REPO)]
        run = subprocess.run(["make", "--no-print-directory", *skip, "slurm", f"PY={BIN / 'python'}",
                              f"SOURCE={source}", f"OUT={out}", "ARGS=--slurm-keep-successful-logs"], cwd=REPO,
                             env=slurm_environ(env, REPO / "src"), capture_output=True, text=True, timeout=1800)
        output = run.stdout + run.stderr
        assert run.returncode == 0, output[-4000:]
    assert "site published" in output
    # the build ran in OUT, and its Slurm jobs too
    assert (out / "results/catalog.json").is_file() and (out / "logs").is_dir()
    jobs = slurm_logs(out)
    batches = {}
    for name in jobs:
        m = re.fullmatch(r"rule_(prose|page|print|pictures)_(b\d+)", name)
        if m:
            batches.setdefault(m.group(2), set()).add(m.group(1))
    assert batches and all({"prose", "page", "print"} <= stages for stages in batches.values()), sorted(jobs)
    for batch, stages in batches.items():
        for stage in stages:
            assert f"(Rule: {stage}_{batch})" in jobs[f"rule_{stage}_{batch}"]
    local, through_slurm = tree_bytes(local / "site"), tree_bytes(out / "site")
    assert sorted(through_slurm) == sorted(local)
    assert [name for name in local if local[name] != through_slurm[name]] == []
