"""`make real-check`: the seed's outputs committed under tests/fixtures/seed/ (which tests/test_fidelity.py
compares the build with) are still what the seed notebook writes, rerun from the seeds folder beside the
clone (../shared/seeds).  Skipped, with the reason, where it is absent."""
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SEEDS = REPO.parent / "shared" / "seeds"
sys.path[:0] = [str(REPO / "tests"), str(REPO / "src")]
from test_fidelity import CHECKS, CSVS, FIXTURE, SEED_NOTEBOOK, assert_same_values, write_fixture  # noqa: E402

SEED = SEEDS / SEED_NOTEBOOK


@pytest.mark.skipif(not SEED.is_file(), reason=f"the seed notebook is not beside the clone ({SEED})")
def test_fixture_is_what_the_seed_writes(tmp_path):
    write_fixture(SEED, tmp_path)
    for name in CSVS:
        assert_same_values(tmp_path / name, FIXTURE / name, "fixture")
    assert (tmp_path / CHECKS).read_text() == (FIXTURE / CHECKS).read_text()
