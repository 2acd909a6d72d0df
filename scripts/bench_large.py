"""`make bench`'s large part: a dictionary of about 5,000 terms made from the real one
(scripts/synthetic_dictionary.py: its entries repeated under new keys, each copy's cross-references
kept inside it), read and planned:

  - the reader's check (glossary.dictionary.check: every file, key, label and citation), in-process;
  - a dry run of its clean build through `python -m glossary.build -- --dry-run`: the workflow's parse,
    the plan and Snakemake's DAG, with the jobs it plans and the peak memory of the process tree.

  - its clean build (against 10x the real dictionary's, when the dictionary part ran), peak memory, the
    no-op, three one-word edits in a row of one term past its first sentence (their median, each listed),
    and the search's transfer before the first results (scripts/bench_reading.py).

Settings: LARGE_N (default 5000; "" skips the part), LARGE_BUILD (default 1; 0 stops after the dry
run: the clean build takes many minutes on 2 cores).  Skipped, with the reason, where the real
dictionary is absent."""
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import bench_dictionary
import synthetic_dictionary

from glossary import dictionary

PART = "large"
# one-word edits timed in a row after the clean build
EDITS = 3
REPO = Path(__file__).resolve().parents[1]


def large_part(row, base, cores=2, real_clean_s=None):
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
    if code != 0 or os.environ.get("LARGE_BUILD", "1") == "0":
        return
    build_rows(row, config, out, terms, cores, real_clean_s)


def build_rows(row, config, out, terms, cores, real_clean_s):
    """The clean build, the no-op, a one-word edit and the search's transfer, at this size."""
    seconds, jobs, _, (_, tree) = bench_dictionary.site(config, out, cores, sample=True)
    row(PART, f"clean build of {terms} terms (--cores {cores})", seconds, sum(jobs.values()),
        f"peak memory {tree / 2**30:.2f} GiB (target 2 GiB)"
        + (f"; {seconds / real_clean_s:.1f}x the real dictionary's {real_clean_s:.1f} s (target at most 10x)"
           if real_clean_s else ""))
    # the clean build's gigabytes on disk first: the rows below time their own builds, not its writeback
    os.sync()
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    times = [bench_dictionary.run(bench_dictionary.build_cmd(config, out, cores), REPO, env)[0] for _ in range(3)]
    row(PART, "no-op", min(times), 0, "target at most 0.5 s; best of " + ", ".join(f"{t:.2f}" for t in times))
    # three edits in a row, as an author makes them (the word edited, then edited back, then again)
    edits = []
    for _ in range(EDITS):
        word, new, line = bench_dictionary.one_word_edit(config.parent, in_summary=False)
        seconds, jobs, _, _ = bench_dictionary.site(config, out, cores)
        edits.append(seconds)
    total, rules = bench_dictionary.summary(jobs)
    row(PART, "one-word edit past a term's first sentence", statistics.median(edits), total,
        f"{bench_dictionary.EDITED_FILE}:{line}: {word} -> {new}; {rules}; the median of {EDITS} edits in a "
        f"row: {', '.join(f'{t:.1f}' for t in edits)} s; target at most 10 s")
    reading = subprocess.run([sys.executable, str(REPO / "scripts/bench_reading.py"), str(out / "site")], cwd=REPO,
                             env=env, capture_output=True, text=True)
    transfer = re.search(r"before the first results of '[^']*' \(gzip\): ([\d.]+ KB)", reading.stdout)
    row(PART, "search: transfer before the first results (gzip)", transfer.group(1) if transfer else "n/a", "",
        "target at most 300 KB; " + " | ".join(line.strip() for line in reading.stdout.splitlines()[1:]))
