"""`make bench`'s row for "every mistake in one run": the German edition of the real dictionary as its
authors keep it (../shared/adictml/translations/de, whose main file is ADictML_German.tex), built on its
own (`python -m glossary.build --source <its main file> --out <folder>`, what `make site SOURCE=` runs):
the time of the one run that lists every mistake (it stops before Snakemake), the count and the summary
by kind it prints.  Skipped, with the reason, when the dictionary is absent.

    PYTHONPATH=src python scripts/bench_mistakes.py     # the row alone
"""
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GERMAN = REPO.parent / "shared" / "adictml" / "translations" / "de" / "ADictML_German.tex"
PART = "mistakes"
SCENARIO = "one run listing every mistake of the German edition as kept"


def mistakes_part(row, base, rounds=3):
    """Adds the row: the median wall time of `rounds` runs, and the count and summary they print."""
    if not GERMAN.is_file():
        row(PART, SCENARIO, "", "", f"skipped: no {GERMAN}")
        return
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")]))
    times, told = [], ""
    for n in range(rounds):
        start = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "glossary.build", "--cores", "1", "--source", str(GERMAN),
                              "--out", str(Path(base) / f"mistakes-{n}")], capture_output=True, text=True, env=env)
        times.append(time.perf_counter() - start)
        told = next((line for line in run.stderr.splitlines() if re.match(r"\d+ mistakes: ", line)), "")
        if run.returncode != 1 or not told:
            row(PART, SCENARIO, f"{times[-1]:.2f}", "", f"unexpected: exit {run.returncode}, "
                f"{run.stderr.strip().splitlines()[-1:] or 'no output'}")
            return
    row(PART, SCENARIO, f"{sorted(times)[len(times) // 2]:.2f}", "", f"median of {rounds}; {told}")


if __name__ == "__main__":
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        mistakes_part(lambda *r: rows.append(r), tmp)
    for r in rows:
        print("  ".join(str(x) for x in r))
