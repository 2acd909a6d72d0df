"""Between clones: a fresh clone whose demos did not change takes the trained results
from Snakemake's output cache (--cache, SNAKEMAKE_OUTPUT_CACHE) and publishes the same bytes."""
import os
import subprocess

import pytest
from conftest import BIN, copy_repo, snakemake, tree_bytes

pytestmark = pytest.mark.slow


def build(root, cache):
    run, _ = snakemake(root, "--cache", env=dict(os.environ, SNAKEMAKE_OUTPUT_CACHE=str(cache)))
    subprocess.run([str(BIN / "python"), "-m", "glossary.publish", "results/site", "site"], cwd=root,
                   env=dict(os.environ, PYTHONPATH=str(root / "src")), check=True, capture_output=True)
    return run.stdout + run.stderr


def test_second_clone_reuses_the_training_and_publishes_the_same_bytes(built, tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    first, second = copy_repo(tmp_path / "first"), copy_repo(tmp_path / "second")

    out = build(first, cache)
    assert "Moving output file results/attention/model.json to cache." in out
    assert "[B-train]" in (first / "logs/compute/attention.log").read_text()     # it trained

    out = build(second, cache)
    for step in ("tokens.json", "model.json", "data"):
        assert f"output file results/attention/{step}" in out and "from cache" in out
    assert "Symlinking output file results/attention/model.json from cache." in out
    assert "Moving output file" not in out                                      # nothing computed anew
    assert (second / "logs/compute/attention.log").read_text() == "", "the training ran in the second clone"
    # The site is made of plain files, whatever the cache hands back as symlinks.
    assert not [p for p in (second / "site").rglob("*") if p.is_symlink()]
    assert tree_bytes(second / "site") == tree_bytes(first / "site") == tree_bytes(built[0] / "site")
