"""`make bench`'s large part: a dictionary of about 5,000 terms made from the real one
(scripts/synthetic_dictionary.py: its entries repeated under new keys, each copy's cross-references
kept inside it), read and planned:

  - the reader's check (glossary.dictionary.check: every file, key, label and citation), in-process;
  - a dry run of its clean build through `python -m glossary.build -- --dry-run`: the workflow's parse,
    the plan and Snakemake's DAG, with the jobs it plans and the peak memory of the process tree.

Settings: LARGE_N (default 5000; "" skips the part).  Skipped, with the reason, where the real
dictionary is absent.  The clean build, the no-op and a one-word edit at this size are not run here:
on 2 cores the clean build alone takes longer than a bench run should."""
import os
import re
import sys
import time
from pathlib import Path

import bench_dictionary
import synthetic_dictionary

from glossary import dictionary

PART = "large"
REPO = Path(__file__).resolve().parents[1]


def large_part(row, base, cores=2):
    n = os.environ.get("LARGE_N", "5000")
    reason = bench_dictionary.skipped() if n else "LARGE_N is empty"
    if reason:
        row(PART, "about 5,000 terms", "skipped", "", reason)
        return
    real = bench_dictionary.prepare(base / "large-real")
    config = synthetic_dictionary.main(real, base / f"large-{n}", int(n))
    start = time.perf_counter()
    read, mistakes = dictionary.check(config)
    terms = len(read["entries"]) if read else 0
    row(PART, f"reader's check of {terms} terms (every file, key, label, citation)",
        time.perf_counter() - start, "", f"{len(mistakes)} mistakes")
    out = base / f"large-{n}-out"
    cmd = [sys.executable, "-m", "glossary.build", "--cores", str(cores), "--source", str(config), "--out", str(out),
           "--", "--dry-run"]
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    seconds, code, text, _, peak = bench_dictionary.run(cmd, REPO, env=env, sample=True)
    planned = re.search(r"\[\s*\d+/(\d+)\]", text)      # the progress lines: "[  0/446] ..."
    jobs = planned.group(1) if planned else ""
    row(PART, f"dry run of its clean build: parse, plan, DAG ({terms} terms)", seconds if code == 0 else "failed",
        jobs, f"peak memory {peak / 2**30:.2f} GiB (target 2 GiB)" if code == 0 else text[-300:])
