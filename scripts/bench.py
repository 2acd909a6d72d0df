"""`make bench`: how long building the site takes, measured in one run, printed as one table.

A benchmark, not a test.  It builds copies of the repository in a temporary
folder, as a user would (`python -m glossary.build`, what `make site` runs):

  machine  first, always: a fixed loop of Python on one core, the machine's speed that day (runs of
         other days are compared through it)
  repo   the demos run bare; a clean build; a no-op; a prose-only edit through
         `make site` (Snakemake) and through the preview (save to screen, median
         of 10, Chromium); a comment-only edit of a demo; a real code change; a
         clean build with and without the print edition; clean builds of fresh
         clones with a cold and a warm between-clone cache (--cache)
  scale  N synthetic entries (`make new-entry`'s skeleton: a light demo, one CSV,
         one line figure): clean builds at each core count, parallel efficiency,
         seconds per job, the no-op, Snakemake's own no-op and its dry run; the
         book's and the link check's jobs in the clean build; one entry's prose
         edit through `make site` (page, entry PDF, book) against the clean build,
         and through the preview
  dictionary  the real dictionary (../shared/adictml; scripts/bench_dictionary.py): the authors'
         latexmk, the clean build of its site against it, peak memory, the no-op, a one-word edit
         through `make site` and through the preview; skipped, with the reason, when absent
  large  about 5,000 terms made from the real dictionary (scripts/bench_large.py,
         scripts/synthetic_dictionary.py): the reader's check, the dry run of the clean build (parse,
         plan, DAG: time, jobs, peak memory); skipped, with the reason, when absent
  slurm  the real dictionary through the single-node Slurm of the tests (scripts/bench_slurm.py): the
         time, the Snakemake and Slurm jobs, byte identity with the local build; skipped, with the
         reason, when Slurm or the dictionary is absent
  lsp    the language server on the real dictionary (scripts/bench_lsp.py): a diagnostic's latency
         after an unsaved edit, a completion's, a hover's; skipped, with the reason, when absent
  mistakes  after the dictionary part, one run of the German edition as its authors keep it, which
         lists every mistake (scripts/bench_mistakes.py): its time, count and summary
  audit  after the dictionary part, `make audit` of its site (glossary.audit: widths, reference
         numbers, numbers shown twice, "??", the drawn figures' contrast in the dark, TeX in the
         metadata, axe-core) and each term's words against the authors' book that part built
         (glossary.fidelity: minimum, median, the ten lowest)

Settings, from the environment (`make bench N="10 50"`):
  N          entry counts of the scale part, built in full (default "10"; "" for none)
  N_DRY      entry counts only dry-run and stamp-checked, without a build (default "200")
  CORES      cores of the repo part's builds (default 2)
  CORES_LIST cores of the scale part's clean builds (default "1 2")
  ROUNDS     rounds of the repo part's bare demos and clean build, interleaved (default 3; the
             medians are shown, and their ratio)
  REPEAT     clean builds of the cache rows and the scale part, each (default 1; the best is shown)
  ILP        1: also build the first N with Snakemake's ILP scheduler, for comparison (default 1)
  PARTS      "repo scale dictionary large slurm lsp" (default all six)
  LARGE_N    the large part's term count (default 5000)
  BENCH_DICTIONARY  0: skip the dictionary part (default 1)
  BENCH_AUDIT 0: skip the audit's rows (default 1)
  BENCH_DIR  build there and keep it (default: a temporary folder, removed)
"""
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from statistics import median

REPO = Path(__file__).resolve().parents[1]
PY = sys.executable
SNAKEMAKE = str(Path(PY).with_name("snakemake"))
ROWS = []
REPEAT = int(os.environ.get("REPEAT", "1"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
# The real dictionary's clean build, which the large part's is compared with.
REAL_CLEAN = {}
CACHED = {"compute": "model.json"}


def row(part, scenario, seconds, jobs="", note=""):
    ROWS.append((part, scenario, f"{seconds:.1f}" if isinstance(seconds, float) else seconds, str(jobs), note))
    unit = " s" if isinstance(seconds, float) else ""
    print(f"  {scenario}: {ROWS[-1][2]}{unit} {jobs} {note}", file=sys.stderr, flush=True)


def copy_repo(dst):
    from glossary import verify
    return verify.copy_sources(REPO, dst)


def environ(root, cache=None):
    # build.py uses the between-clone cache when SNAKEMAKE_OUTPUT_CACHE names a folder.
    return dict(os.environ, PYTHONPATH=str(root / "src"), SNAKEMAKE_OUTPUT_CACHE=str(cache or ""))


def timed(cmd, root, cache=None, extra_env=None):
    start = time.perf_counter()
    run = subprocess.run(cmd, cwd=root, env=dict(environ(root, cache), **(extra_env or {})), capture_output=True,
                         text=True)
    seconds = time.perf_counter() - start
    if run.returncode != 0:
        sys.exit(f"bench: {' '.join(map(str, cmd))} failed in {root}:\n{run.stdout[-3000:]}{run.stderr[-3000:]}")
    return seconds, run


def read_events(path):
    import json
    return [json.loads(line) for line in Path(path).read_text().splitlines()] if Path(path).exists() else []


def job_times(events):
    """{(rule, jobid): seconds} of the jobs a build ran, from its events (glossary.build, GLOSSARY_EVENTS)."""
    started, times = {}, {}
    for e in events:        # a build with editions runs Snakemake once per edition: ids start again
        if e["event"] == "job_info":
            started[e["jobid"]] = (e["rule_name"], e["t"], len(times))
        elif e["event"] == "job_finished" and e["job_id"] in started:
            rule, t, _ = started.pop(e["job_id"])
            times[(rule, f"{e['job_id']}.{len(times)}")] = e["t"] - t
    return times


def site(root, cores=2, cache=None, extra=(), events=None):
    """`make site` in root (with extra Snakemake arguments: no stamp): (seconds, {rule: jobs run}).
    The jobs are counted from the build's events; jobs whose outputs came from the between-clone
    cache are told by their outputs, which Snakemake hands back as symlinks into the cache."""
    record = Path(events or tempfile.mktemp(prefix="bench-events-"))
    record.unlink(missing_ok=True)
    cmd = [PY, "-m", "glossary.build", "--cores", str(cores)] + (["--", *extra] if extra else [])
    env_extra = {"GLOSSARY_EVENTS": str(record)}
    seconds, _ = timed(cmd, root, cache, env_extra)
    ran = read_events(record)
    jobs = Counter(e["rule_name"] for e in ran if e["event"] == "job_info" and e["rule_name"] != "all")
    # A job served from the cache hands back a symlink and runs no script, so it writes no log.
    for rule, output in CACHED.items():
        served = [p for p in root.glob(f"results/*/{output}") if cache and p.is_symlink()
                  and not (root / "logs" / rule / f"{p.relative_to(root / 'results').parts[0]}.log").exists()]
        if served:
            jobs[rule] -= len(served)
            jobs[f"{rule} from cache"] = len(served)
    if events is None:
        record.unlink(missing_ok=True)
    return seconds, +jobs


def noop(root, part):
    times = []
    for _ in range(3):
        seconds, run = timed([PY, "-m", "glossary.build"], root)
        assert "up to date" in run.stdout, run.stdout
        times.append(seconds)
    row(part, "no-op: make site", min(times), 0, notes("stamp matches, Snakemake not started", repeated(times)))
    times = [timed([SNAKEMAKE, "--cores", "2"], root)[0] for _ in range(2)]
    row(part, "no-op: Snakemake's own check", min(times), 0, notes("what make site ran before the stamp",
                                                                      repeated(times)))


def planned(output):
    """The job count of a dry run's table (less the target rule `all`)."""
    total = re.search(r"^total\s+(\d+)", output, re.M)
    return int(total.group(1)) - 1 if total else "?"


def summary(jobs):
    ran = sum(n for rule, n in jobs.items() if not rule.endswith("from cache"))
    return str(ran), ", ".join(rule + (f"×{n}" if n > 1 else "") for rule, n in sorted(jobs.items()))


def notes(*parts):
    return "; ".join(p for p in parts if p)


def repeated(times, what="best"):
    return f"{what} of {len(times)}: " + ", ".join(f"{t:.1f}" for t in times) if len(times) > 1 else ""


def clean(root):
    for name in ("results", "logs", ".snakemake", "site"):
        shutil.rmtree(root / name, ignore_errors=True)


def demos(root):
    from glossary import entries
    for md in sorted(root.glob("entries/*/entry.md")):
        meta, _ = entries.split_front_matter(md.read_text(encoding="utf-8"), md)
        yield md.parent / meta["demo"]


def bare_demos(root, base, limit=None):
    """{demo: seconds} of `python demo.py` in a temporary folder, on the pinned numeric platform."""
    import yaml

    from glossary import numeric
    env = dict(os.environ, MPLBACKEND="Agg")
    numeric.apply(yaml.safe_load((root / "config.yaml").read_text())["numeric_env"], env)
    times = {}
    for demo in list(demos(root))[:limit]:
        start = time.perf_counter()
        subprocess.run([PY, str(demo)], cwd=tempfile.mkdtemp(dir=base), env=env, check=True, capture_output=True)
        times[demo.name] = time.perf_counter() - start
    return times


def repo_part(base, cores):
    part = "repo"
    root = copy_repo(base / "repo")
    bare, builds = [], []
    for _ in range(ROUNDS):     # interleaved: a slow spell of the machine slows both alike
        bare.append(bare_demos(root, base))
        clean(root)
        builds.append(site(root, cores))
    for name in bare[0]:
        times = [b[name] for b in bare]
        row(part, f"bare demo: python {name}", median(times), "",
            notes("pinned env, temp dir", repeated(times, "median")))
    times, sums = [t for t, _ in builds], [sum(b.values()) for b in bare]
    jobs, rules = summary(builds[-1][1])
    row(part, f"clean build (--cores {cores})", median(times), jobs, notes(rules, repeated(times, "median")))
    row(part, "clean build / bare demos together", f"{median(times) / median(sums):.2f}x", "",
        notes("ratio of the medians", "rounds: " + ", ".join(f"{t / b:.2f}" for t, b in zip(times, sums))
              if len(times) > 1 else ""))
    noop(root, part)
    # What `make site` adds before build.py: the Makefile's set-up checks (TeX Live, poppler, Chromium).
    (root / ".venv").symlink_to(REPO / ".venv")
    times = [timed(["make", "-s", "-o", ".venv/.installed", "setup"], root)[0] for _ in range(3)]
    row(part, "no-op: make's own set-up checks, before build.py", min(times), 0, repeated(times))
    md, demo = next(root.glob("entries/*/entry.md")), next(demos(root))
    for label, path, suffix in (("prose-only edit (make site, through Snakemake)", md, "\nOne more sentence.\n"),
                                ("comment-only edit of a demo", demo, "\n# bench: a comment\n"),
                                ("real code change in a demo", demo, "\nBENCH_CONSTANT = 1\n")):
        path.write_text(path.read_text() + suffix)
        seconds, jobs = site(root, cores)
        row(part, label, seconds, *summary(jobs))
    preview_rows(part, root, md.parent.name)
    print_rows(part, root, cores)
    results = {"cold": [], "warm": []}
    for i in range(REPEAT):
        cache = base / f"cache-{i}"
        cache.mkdir()
        for label in results:
            clone = copy_repo(base / f"clone-{label}")
            results[label].append(site(clone, cores, cache=cache))
            shutil.rmtree(clone)
    for label, runs in results.items():
        times = [t for t, _ in runs]
        row(part, f"clean build of a fresh clone, {label} cache (--cores {cores})", min(times),
            summary(runs[0][1])[0], notes(summary(runs[0][1])[1], repeated(times)))


def preview_rows(part, root, slug):
    """The preview's save-to-screen time of a prose edit (glossary.preview, Playwright): median of 10."""
    try:
        from glossary import previewmeasure
        times = previewmeasure.measure_save_to_screen(root, slug, n=10)
    except Exception as err:        # a machine without Chromium still gets the other rows
        row(part, "prose edit through the preview: save to screen", "n/a", "", f"not measured: {err}")
        return
    row(part, "prose edit through the preview: save to screen", f"{median(times):.2f}", 0,
        notes("median of 10", "range " + f"{min(times):.2f}-{max(times):.2f} s"))


def print_rows(part, root, cores):
    """The clean build with the print edition.  Without it, the build was `--omit-from print_format
    book`; since the catalog is a checkpoint, Snakemake 9.27 leaves out every job after it under
    --omit-from too (the index, the pages), so that row is reported as skipped, with the reason."""
    clean(root)
    seconds, jobs = site(root, 2)
    row(part, "clean build with the print edition (--cores 2)", seconds, sum(jobs.values()))
    row(part, "clean build without the print edition", "skipped", "",
        "--omit-from leaves out every job after the catalog's checkpoint (Snakemake 9.27)")


def scale_root(base, n):
    """A copy of the repository whose entries are n skeletons of `make new-entry`."""
    root = copy_repo(base / f"scale-{n}")
    for folder in (root / "entries").iterdir():
        shutil.rmtree(folder)
    spec = importlib.util.spec_from_file_location("new_entry", root / "scripts/new_entry.py")
    new_entry = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(new_entry)
    for i in range(n):
        new_entry.create(f"bench-term-{i:03d}", root)
    return root


def scale_part(base, n, cores_list, ilp=False):
    part = f"N={n}"
    root = scale_root(base, n)
    bare = bare_demos(root, base, limit=3)
    row(part, "bare demo: one skeleton, python <demo>.py", sum(bare.values()) / len(bare), "",
        f"mean of {len(bare)}; a clean build runs its 4 steps as jobs, plus the figure, notebook, page")
    seconds, run = timed([SNAKEMAKE, "--cores", "2", "--dry-run"], root)
    row(part, "dry run of the clean build (parse, DAG)", seconds, planned(run.stdout))
    if ilp and cores_list:      # first: the builds that follow leave the stamp for the no-op
        clean(root)
        ilp_run = site(root, max(cores_list), extra=["--scheduler", "ilp"])
    times, events = {}, base / f"events-{n}.jsonl"
    for cores in cores_list:
        runs = []
        for _ in range(REPEAT):
            clean(root)
            runs.append(site(root, cores, events=events if cores == max(cores_list) else None))
        seconds, total = min(t for t, _ in runs), sum(runs[0][1].values())
        times[cores] = seconds
        eff = (f", parallel efficiency {times[min(times)] * min(times) / (cores * seconds):.0%}"
               if len(times) > 1 else "")
        row(part, f"clean build (--cores {cores})", seconds, total,
            notes(f"{seconds * cores / total:.2f} core-s per job{eff}", repeated([t for t, _ in runs])))
    if ilp and cores_list:
        cores = max(cores_list)
        row(part, f"clean build (--cores {cores}), Snakemake's default ILP scheduler", ilp_run[0],
            sum(ilp_run[1].values()),
            f"vs greedy (workflow profile) {times[cores]:.1f} s")
    noop(root, part)
    if cores_list:
        edit_rows(part, root, read_events(events), max(cores_list), n)


def edit_rows(part, root, clean_events, cores, n):
    """At scale: the book's and the link check's share of the clean build, and what a one-entry
    prose edit costs (page, entry PDF, book) through `make site` and through the preview."""
    spent = job_times(clean_events)
    for rule, what in (("book", "the book's job (pdflatex passes over every entry)"),
                       ("links", "the link check's job (every page, feed and PDF)")):
        took = [s for (r, _), s in spent.items() if r == rule]
        if took:
            row(part, f"{what} in the clean build", sum(took), len(took))
    clean_total = max((e["t"] for e in clean_events), default=None)
    md = sorted(root.glob("entries/*/entry.md"))[n // 2]
    md.write_text(md.read_text() + "\nOne more sentence of prose.\n")
    seconds, jobs = site(root, cores)
    ratio = f"; {seconds / clean_total:.3f} of the clean build ({clean_total:.0f} s; target at most 0.1)" \
        if clean_total else ""
    row(part, "one entry's prose edit: make site (page, entry PDF, book)", seconds, *summary(jobs))
    ROWS[-1] = ROWS[-1][:4] + (ROWS[-1][4] + ratio,)
    preview_rows(part, root, md.parent.name)


def dry_part(base, n, built):
    """n entries without building them: the dry run, and the stamp check over a site/ of n entries' size."""
    part = f"N={n}"
    root = scale_root(base, n)
    seconds, run = timed([SNAKEMAKE, "--cores", "2", "--dry-run"], root)
    row(part, "dry run of the clean build (parse, DAG)", seconds, planned(run.stdout))
    if built is None:
        return
    # A site/ as big as n entries' (copies of a built skeleton's pages): what the stamp hashes.
    src = built / "site/terms"
    shutil.copytree(built / "site", root / "site", ignore=shutil.ignore_patterns("terms"))
    names = sorted(p.name for p in src.iterdir())
    one = [p for p in names if p.startswith("bench-term-000")]
    for i in range(n):
        for name in one:
            target = root / "site/terms" / name.replace("bench-term-000", f"bench-term-{i:03d}")
            (shutil.copytree if (src / name).is_dir() else shutil.copyfile)(src / name, target)
    timed([PY, "-m", "glossary.stamp", "record"], root)
    seconds, _ = timed([PY, "-m", "glossary.stamp", "check"], root)
    files = sum(1 for p in (root / "site").rglob("*") if p.is_file())
    row(part, "no-op: make site (stamp check only)", seconds, 0, f"{files} site files (copies of a built skeleton)")


def audit_rows(base):
    """The audit (glossary.audit, with the fidelity to the authors' book) of the real dictionary's site
    as the dictionary part left it (its one-word edits of one term included): its figures as rows."""
    part = "audit"
    site, book = base / "dictionary-out" / "site", base / "authors" / "ADictML_Main.pdf"
    if os.environ.get("BENCH_AUDIT", "1") == "0" or not (site / "index.html").is_file():
        row(part, "site audit of the real dictionary", "skipped", "",
            "BENCH_AUDIT=0" if os.environ.get("BENCH_AUDIT", "1") == "0" else f"no site at {site}")
        return
    cmd = [PY, "-m", "glossary.audit", "--site", str(site), "--json"]
    cmd += ["--book", str(book)] if book.is_file() else []
    load = os.getloadavg()[0]
    start = time.perf_counter()
    run = subprocess.run(cmd, cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO / "src")), capture_output=True,
                         text=True)
    seconds = time.perf_counter() - start
    if run.returncode not in (0, 1):
        row(part, "site audit of the real dictionary", "n/a", "", " ".join(run.stderr.split())[-300:])
        return
    report = json.loads(run.stdout)
    f, failures = report["figures"], report["failures"]
    counts = Counter(x["check"] for x in failures)
    row(part, "make audit: every page at 1280 and 390 px, light and dark", seconds, f["pages"],
        f"{len(failures)} failures ({', '.join(f'{c} {n}' for c, n in sorted(counts.items()))}); "
        f"{f['pdfs']} PDFs, {f['svgs']} SVGs; load {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    wider = f["wider"]
    row(part, "pages wider than the viewport at 390 px", f"{wider['390 light']}", "",
        f"dark {wider['390 dark']}; at 1280 px light {wider['1280 light']}, dark {wider['1280 dark']}; target 0")
    row(part, "references not showing their target's number", f"{f['refs']['mismatched']}", "",
        f"of {f['refs']['shown']} numbered references; target 0")
    row(part, "pages showing a number twice", f"{f['duplicates']}", "", "target 0")
    qq = f["qq"]
    row(part, "'??' in pages", f"{qq['pages']}", "", f"in SVGs {qq['svgs']}, in PDFs {qq['pdfs']}; target 0")
    c = f["contrast"]
    row(part, "lowest stroke contrast of a drawn figure, dark", f"{c['lowest']}:1" if c["lowest"] else "-", "",
        f"{c['below']} of {c['figures']} below 3:1; lowest at {c['lowest_at']}; target at least 3:1")
    tex = f["tex"]
    row(part, "pages with TeX in title, descriptions, alt texts", f"{tex['pages']}", "",
        f"terms.json: {tex['terms.json']} terms, llms.txt: {tex['llms.txt']} lines; target 0")
    row(part, "axe-core violations", f"{f['axe']['light'] + f['axe']['dark']}", "",
        f"light {f['axe']['light']}, dark {f['axe']['dark']} (the contrast rule); target 0")
    fid = f.get("fidelity")
    if not fid:
        row(part, "words like the authors' book", "n/a", "", f"no book at {book} (the latexmk row says why)")
        return
    row(part, "words like the authors' book: median of the terms", f"{fid['median']}", fid["terms"],
        "difflib ratio of the page's words and the book entry's, math left out; target at least 0.98")
    row(part, "words like the authors' book: minimum", f"{fid['min']}", "",
        "target at least 0.9; not in the book: " + (", ".join(fid["not in the book"]) or "none"))
    row(part, "words like the authors' book: the ten lowest", "", "",
        ", ".join(f"{slug} {r}" for slug, r in fid["lowest"]))


def machine_row():
    """The machine's speed on one core, by a fixed loop of Python: this project's machines of one kind ran
    the same build 1.85 times as long on one day as on another (the 5,000-term clean build: 405 and 751 s),
    so a run tells whether its day's one core was slow too (on the slow day it was not: 1.2 s)."""
    times = []
    for _ in range(3):
        began, total = time.perf_counter(), 0
        for i in range(20_000_000):
            total += i
        times.append(time.perf_counter() - began)
    row("machine", "a fixed Python loop of 20 million additions, one core", min(times), "",
        "one core's speed, to compare runs of other days by; " + repeated(times))


def main():
    parts = os.environ.get("PARTS", "repo scale dictionary large slurm lsp").split()
    ns = [int(x) for x in os.environ.get("N", "10").split()]
    dry = [int(x) for x in os.environ.get("N_DRY", "200").split()]
    cores = int(os.environ.get("CORES", "2"))
    cores_list = [int(x) for x in os.environ.get("CORES_LIST", "1 2").split()]
    keep = os.environ.get("BENCH_DIR")
    base = Path(keep or tempfile.mkdtemp(prefix="glossary-bench-")).resolve()
    base.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(REPO / "src"))
    print(f"bench in {base} ({os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f})", file=sys.stderr)
    start = time.perf_counter()
    machine_row()
    try:
        if "repo" in parts:
            repo_part(base, cores)
        if "scale" in parts:
            for n in ns:
                scale_part(base, n, cores_list, ilp=n == ns[0] and os.environ.get("ILP", "1") == "1")
            for n in dry:
                dry_part(base, n, base / f"scale-{min(ns)}" if ns else None)
        if "dictionary" in parts:
            sys.path.insert(0, str(REPO / "scripts"))
            import bench_dictionary
            REAL_CLEAN["s"] = bench_dictionary.dictionary_part(row, base, cores)
            audit_rows(base)
            import bench_mistakes
            bench_mistakes.mistakes_part(row, base)
        if "large" in parts:
            sys.path.insert(0, str(REPO / "scripts"))
            import bench_large
            bench_large.large_part(row, base, cores, REAL_CLEAN.get("s"))
        if "slurm" in parts:
            sys.path.insert(0, str(REPO / "scripts"))
            import bench_slurm
            bench_slurm.slurm_part(row, base, cores)
        if "lsp" in parts:
            sys.path.insert(0, str(REPO / "scripts"))
            import bench_lsp
            bench_lsp.lsp_part(row)
    finally:
        if not keep:
            shutil.rmtree(base, ignore_errors=True)
    widths = [max(len(r[i]) for r in ROWS + [("part", "scenario", "wall s", "jobs", "")]) for i in range(4)]
    line = lambda r: "  ".join([r[0].ljust(widths[0]), r[1].ljust(widths[1]), r[2].rjust(widths[2]),
                                r[3].rjust(widths[3]), r[4]]).rstrip()
    print(line(("part", "scenario", "wall s", "jobs", "notes")))
    print(line(tuple("-" * w for w in widths) + ("-----",)))
    for r in ROWS:
        print(line(r))
    print(f"(whole bench {time.perf_counter() - start:.0f} s; load average at the end {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
