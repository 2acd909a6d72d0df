"""The build's numbers are the seed's: the attention demo's loss curve, attention weights and
check lines equal, value by value, what the seed notebook's own code writes on the same numeric
platform.

The seed's outputs are committed under tests/fixtures/seed/ (see its README), so the build is
checked against them on any clone; checks/test_seed.py (`make real-check`) reruns the seed where the
seeds folder is beside the clone, to show the fixture is still what the seed writes.  Regenerate the
fixture with `PYTHONPATH=src .venv/bin/python tests/test_fidelity.py <the seeds folder>`.
"""
import csv
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import pinned_environ

# The seed notebook of the attention demo (in the seeds folder beside the clone, not in it).
SEED_NOTEBOOK = "000_bccada11a9c236ee.txt"
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "seed"
CSVS = ("attention_loss.csv", "attention_weights.csv")
TAGS = ("[B-tokens]", "[B-train]", "[B-display]")
CHECKS = "checks.txt"


def rows(path):
    """(header, rows of floats) of a CSV the demo writes."""
    with open(path, newline="") as f:
        reader = csv.reader(f)
        return next(reader), [[float(v) for v in row] for row in reader]


def tagged(lines):
    """The check lines, in order, that the build and the seed both print."""
    return [line for line in lines if line.startswith(TAGS)]


def assert_same_values(path, expected_path, what):
    """Header and every value of the CSV at `path` equal those at `expected_path`."""
    head, ours = rows(path)
    want_head, theirs = rows(expected_path)
    assert head == want_head, f"{path.name}: header {head} != {what} {want_head}"
    assert len(ours) == len(theirs) > 100, f"{path.name}: {len(ours)} rows, {what} has {len(theirs)}"
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert a == b, f"{path.name} row {i + 2}: {a} != {what} {b}"


def run_seed(seed, work):
    """Run the seed notebook's code cells as one script in `work` on the pinned numeric platform,
    as its README says to; returns its stdout.  Its notebook shim writes the CSVs into `work`."""
    cells = json.loads(Path(seed).read_text())["cells"]
    code = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    (Path(work) / "seed.py").write_text(code)
    run = subprocess.run([sys.executable, "seed.py"], cwd=work, env=pinned_environ(),
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise AssertionError(f"{seed}: the seed's code failed ({run.returncode}):\n{run.stderr[-3000:]}")
    return run.stdout


def write_fixture(seed, dst):
    """Run the seed and keep what the tests compare: its two CSVs, byte for byte, and its tagged
    check lines (the [B-csv] lines name absolute paths, so they stay out)."""
    dst = Path(dst)
    dst.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        out = run_seed(seed, work)
        for name in CSVS:
            shutil.copyfile(Path(work) / name, dst / name)
    (dst / CHECKS).write_text("".join(line + "\n" for line in tagged(out.splitlines())))


@pytest.mark.parametrize("name", CSVS)
def test_csv_equals_seed_value_by_value(built, name):
    root, _ = built
    assert_same_values(root / "site" / "terms" / "attention" / "data" / name, FIXTURE / name, "seed")


def test_check_lines_equal_seed(built):
    root, _ = built
    ours = [line for p in sorted((root / "results" / "attention" / "checks").glob("*.txt"))
            for line in p.read_text().splitlines()]
    theirs = (FIXTURE / CHECKS).read_text().splitlines()
    assert [line[:line.index("]") + 1] for line in theirs] == list(TAGS), "the fixture lacks a tag"
    assert tagged(ours) == theirs


if __name__ == "__main__":
    write_fixture(Path(sys.argv[1]) / SEED_NOTEBOOK, FIXTURE)
    print(f"wrote {FIXTURE}")
