"""`make bench`'s slurm part: the real dictionary built through Slurm (issue 25, item 6).

`make slurm SOURCE=… OUT=…` on the single-node Slurm of the tests (scripts/slurm_cluster.py: slurmctld and
slurmd on localhost) against the local `make site SOURCE=… OUT=…` of the same copy: the wall time of each,
the Snakemake jobs and the Slurm jobs it submitted (one per batch and per group, profiles/slurm), and
whether the two sites are byte-identical.  Skipped, with the reason, where Slurm or the real dictionary is
absent (BENCH_SLURM=0 skips it too)."""
import hashlib
import os
import sys
from pathlib import Path

import bench_dictionary
import slurm_cluster

PART = "slurm"
REPO = Path(__file__).resolve().parents[1]
SLURM_LIB = REPO / ".venv/slurm"        # Makefile: SLURM_LIB, from requirements-slurm.lock


def tree(folder):
    """{relative path: sha256} of every file under folder."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(Path(folder).rglob("*")) if p.is_file()}


def skipped():
    if os.environ.get("BENCH_SLURM", "1") == "0":
        return "BENCH_SLURM=0"
    if not (SLURM_LIB / "snakemake_executor_plugin_slurm").is_dir():
        return f"the Slurm executor plugin is not installed in {SLURM_LIB} (make test-setup)"
    return slurm_cluster.available() or bench_dictionary.skipped()


def slurm_part(row, base, cores=2):
    reason = skipped()
    if reason:
        row(PART, "real dictionary through Slurm", "skipped", "", reason)
        return
    config = bench_dictionary.prepare(base / "slurm-dictionary")
    local = base / "slurm-local"
    seconds, jobs, _, _ = bench_dictionary.site(config, local, cores)
    row(PART, f"local clean build of the same copy (--cores {cores})", seconds, sum(jobs.values()))
    out = base / "slurm-out"
    with slurm_cluster.cluster(base / "slurm-cluster") as cluster:
        cluster = dict(cluster, GLOSSARY_EVENTS=str(base / "slurm-events.jsonl"),
                       PATH=cluster["PATH"] + os.pathsep + str(Path(sys.executable).parent),
                       PYTHONPATH=f"{REPO / 'src'}{os.pathsep}{SLURM_LIB}")
        cmd = [sys.executable, "-m", "glossary.build", "--profile", str(REPO / "profiles/slurm"), "--source",
               str(config), "--out", str(out), "--", "--slurm-keep-successful-logs"]
        seconds, code, text, _, _ = bench_dictionary.run(cmd, REPO, env=cluster)
    if code:
        row(PART, "clean build through Slurm: make slurm SOURCE= OUT=", "failed", "", text[-400:])
        return
    events = bench_dictionary.events_jobs(base / "slurm-events.jsonl")
    submitted = sum(1 for _ in (out / ".snakemake/slurm_logs").rglob("*.log"))     # one log per Slurm job
    same = tree(local / "site") == tree(out / "site")
    row(PART, "clean build through Slurm: make slurm SOURCE= OUT=", seconds, sum(events.values()),
        f"{submitted} Slurm jobs (batches and groups); site byte-identical to the local build: "
        f"{'yes' if same else 'NO'}")
