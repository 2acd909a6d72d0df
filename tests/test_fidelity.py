"""The build's numbers are the seed's: the seed notebook's own code, run on the same
numeric platform, writes the same loss curve and attention weights, value by value."""
import csv
import json
import subprocess
import sys

import pytest
from conftest import SEEDS, pinned_environ

SEED = SEEDS / "000_bccada11a9c236ee.txt"


def rows(path):
    with open(path, newline="") as f:
        reader = csv.reader(f)
        return next(reader), [[float(v) for v in row] for row in reader]


@pytest.fixture(scope="module")
def seed_run(tmp_path_factory):
    assert SEED.is_file(), f"the seed notebook is missing: {SEED}"
    cells = json.loads(SEED.read_text())["cells"]
    code = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    work = tmp_path_factory.mktemp("seed")
    (work / "seed.py").write_text(code)
    run = subprocess.run([sys.executable, "seed.py"], cwd=work, env=pinned_environ(),
                         capture_output=True, text=True, check=True)
    return work, run.stdout    # the seed's notebook shim writes into its working directory


@pytest.mark.parametrize("name", ["attention_loss.csv", "attention_weights.csv"])
def test_csv_equals_seed_value_by_value(built, seed_run, name):
    root, _ = built
    seed_dir, _ = seed_run
    head, ours = rows(root / "site" / "terms" / "attention" / "data" / name)
    seed_head, theirs = rows(seed_dir / name)
    assert head == seed_head
    assert len(ours) == len(theirs) > 100
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert a == b, f"{name} row {i + 2}: build {a} != seed {b}"


def test_check_lines_equal_seed(built, seed_run):
    root, _ = built
    _, seed_out = seed_run
    ours = [line for p in sorted((root / "results" / "attention" / "checks").glob("*.txt"))
            for line in p.read_text().splitlines()]
    theirs = seed_out.splitlines()
    for tag in ("[B-tokens]", "[B-train]", "[B-display]"):
        assert [line for line in ours if line.startswith(tag)] == [line for line in theirs if line.startswith(tag)]
