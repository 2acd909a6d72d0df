# Shared by every stage: the entries (checked before any job runs), the numeric
# platform of the jobs, and the input lists of the rules.
import os
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(workflow.basedir) / "src"))
from glossary import entries as glossary_entries
from glossary import numeric

try:
    ENTRIES = glossary_entries.load_all(config["entries_dir"], glossary_entries.SCHEMA)
except glossary_entries.EntryError as err:
    sys.exit(f"error: {err}")

# Every job starts from this environment: the pinned numeric platform, the
# shared package importable, matplotlib without a display.
numeric.apply(config["numeric_env"])
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(Path(workflow.basedir) / "src")] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
os.environ["MPLBACKEND"] = "Agg"

SITE = "results/site"

# Which ready job takes a free core first: the training chain (the build's long
# pole: the attention demo trains for most of a clean build), then what an entry's
# page waits for (its figures as SVG, its preview, the page); the PNGs, notebooks,
# index and the other site files fit in around them.
PRIORITY = {"compute": 20, "page_path": 10}


# Where a job rate limit stays (--max-jobs-per-timespan set on purpose, a cluster
# executor; see drop_default_rate_limit below), Snakemake re-runs its job
# selection on a timer, and Python waits for pending timers before it exits: such
# runs ended up to a timespan after their last job.  Once the workflow is over,
# nothing is left to select, so the timers go.
def stop_selection_timers():
    for thread in threading.enumerate():
        if isinstance(thread, threading.Timer):
            thread.cancel()


# With a job rate limit (--max-jobs-per-timespan; the command line always sets one,
# 100/1s), every pass of Snakemake's job selection ends by starting a timer for
# another pass a timespan later, which starts one in turn: each finished job begins
# such a chain, and a build of n jobs came to run up to n passes a second, each
# re-evaluating the params of every ready job and stat-ing their inputs.  At 200
# entries Snakemake's main process took a core from the jobs (parallel efficiency
# 73%).  Local jobs here take one core and at least 0.1 s, so the default limit
# never holds one back: a local run drops it, and each finished job then gives
# one pass.  A limit set on purpose (another value, or a cluster executor) stays.
DEFAULT_RATE_LIMIT = (100, 1)


def drop_default_rate_limit():
    scheduler = getattr(workflow, "scheduler", None)
    limiter = getattr(scheduler, "job_rate_limiter", None)
    if workflow.local_exec and limiter is not None and (limiter.max_jobs, limiter.timespan) == DEFAULT_RATE_LIMIT:
        scheduler.job_rate_limiter = None


onstart:
    drop_default_rate_limit()


onsuccess:
    stop_selection_timers()


onerror:
    stop_selection_timers()


wildcard_constraints:
    entry="[a-z0-9-]+",
    figure="[a-z0-9-]+",
    name="[A-Za-z0-9_-]+",


def lib(*modules):
    """The shared package's modules a rule's script imports (inputs, so edits rerun it)."""
    return [f"src/glossary/{m}.py" for m in ("__init__",) + modules]


def entry(wildcards):
    return ENTRIES[wildcards.entry]


def demo(wildcards):
    return f"{config['entries_dir']}/{wildcards.entry}/{entry(wildcards)['demo']}"


def figure(wildcards):
    return next(f for f in entry(wildcards)["figures"] if f["name"] == wildcards.figure)


def entry_files(slug):
    e = ENTRIES[slug]
    terms = f"{SITE}/terms"
    files = [f"{terms}/{slug}.html", f"{terms}/{slug}.py", f"{terms}/{slug}.ipynb",
             f"{terms}/{slug}/data", f"{terms}/{slug}/{e['preview']}"]
    for fig in e["figures"]:
        files += [f"{terms}/{slug}/figures/{fig['name']}.{ext}" for ext in ("pdf", "svg", "png")]
    return files


def site_files():
    files = [f"{SITE}/{name}" for name in
             ("index.html", "style.css", "build-info.json", "terms.json", "sitemap.xml")]
    for slug in ENTRIES:
        files += entry_files(slug)
    return files
