"""`make site` and `make slurm`: build the staged site with Snakemake, then publish it to site/ in one step.

Snakemake runs with this project's logger plugin (`--logger glossary`,
src/snakemake_logger_plugin_glossary), which hands over its log events as JSON
lines: the build shows `[done/total]` per job and an estimate of the time left,
and on a failure a short account (at most ten lines: the failed rule, the file
and line at fault, the error, the log to read) built from the failed job's
event and its log, leaving site/ exactly as it was.

One build at a time per folder: `make site`, `make slurm` and the preview share
one lock (results/.build.lock).  A build that was killed is finished by the next
one (--rerun-incomplete); a stale Snakemake lock is lifted (`snakemake --unlock`)
only when no Snakemake process is running in this folder.  When nothing the
build reads has changed since the last publish (glossary.stamp), Snakemake is
not started at all.
"""
import argparse
import contextlib
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import yaml

from glossary import assets, catalog, dictionary, editions, errors, jsonio, plan, publish, stamp
from glossary.entries import split_front_matter

STAGED, SITE = publish.STAGED, publish.SITE
# The folder the user ran the build from (it may run elsewhere: --out): the logs it names are shown from here.
INVOKED = Path.cwd()
# Held by the running build (and its Snakemake) for as long as they live: the kernel
# lets go of it when they die, however they die.
LOCK = Path(plan.LOCK)
MAX_LINES = 10
# The last line of a report of mistakes (glossary.errors.report): "12 mistakes: 7 undefined-key, ...".
REPORT_END = re.compile(r"\d+ mistakes?: ")
# How many further failed jobs a summary names, one line each (the mistakes' own cap).
SHOWN_JOBS = errors.SHOWN
# Snakemake's flags for a run that only plans: nothing to publish after it.
DRY_RUN = {"-n", "--dry-run", "--dryrun"}
# Builds shorter than this show no estimate of the time left.
ETA_AFTER = 3.0

# The programs and TeX files the build needs, and the Debian package of each.
PROGRAMS = {"pdflatex": "texlive-latex-base", "kpsewhich": "texlive-binaries",
            "pdftocairo": "poppler-utils", "pdftoppm": "poppler-utils"}
TEX_FILES = {"pgfplots.sty": "texlive-pictures", "standalone.cls": "texlive-latex-extra"}

# The exceptions whose message already says what to fix and where: shown alone.
TOLD = ("LatexError", "EntryError", "Mistakes")


class BuildBusy(RuntimeError):
    pass


# --- telling a failure ------------------------------------------------------------

def shown(path, root=None):
    """A path as the editor knows it: relative to the build's folder when inside it."""
    root = Path(root or os.getcwd()).resolve()
    try:
        return str(Path(path).resolve().relative_to(root))
    except (ValueError, OSError):
        return str(path)


def missing_tools():
    """[(tool, Debian package)] for each program or TeX file the build needs and lacks."""
    missing = [(prog, pkg) for prog, pkg in PROGRAMS.items() if shutil.which(prog) is None]
    if shutil.which("kpsewhich"):
        for name, pkg in TEX_FILES.items():
            if not subprocess.run(["kpsewhich", name], capture_output=True, text=True).stdout.strip():
                missing.append((name, pkg))
    return missing


def parse_traceback(text):
    """The last Python traceback in a job's log: ([(file, line, function, code)], exception lines)."""
    start = text.rfind("Traceback (most recent call last):")
    if start < 0:
        return None
    lines = text[start:].splitlines()[1:]
    frames, i = [], 0
    while i < len(lines):
        m = re.match(r'  File "(.+)", line (\d+), in (.+)$', lines[i])
        if not m:
            if lines[i].startswith(" "):     # a code line, or carets under it
                i += 1
                continue
            break
        code = ""
        if i + 1 < len(lines) and lines[i + 1].startswith("    ") and not lines[i + 1].strip().startswith("File "):
            code = lines[i + 1].strip()
        frames.append((m.group(1), int(m.group(2)), m.group(3), code))
        i += 1
    exception = [line for line in lines[i:] if line.strip()]
    return frames, exception


def script_frame(path, line, code, root):
    """Snakemake runs a rule's script from a temporary copy (tmpXXXX.page.py): name
    scripts/page.py instead, at the line that holds the same code."""
    m = re.search(r"/tmp\w+\.(\w+\.py)$", path)
    if not m:
        return path, line
    original = Path(root) / "scripts" / m.group(1)
    if original.is_file() and code:
        for n, text in enumerate(original.read_text(errors="replace").splitlines(), 1):
            if text.strip() == code:
                return str(original), n
    return str(original), None


def is_project(path, root):
    """A file of the build's folder (not its venv nor Snakemake's records), or one of the build's own
    scripts and modules, which a build in another folder (OUT=) runs from the repository."""
    resolved = Path(path)
    if not resolved.is_absolute():
        resolved = Path(root) / resolved
    resolved = resolved.resolve()
    if any(resolved.is_relative_to(own) for own in ((REPO / "scripts").resolve(), Path(__file__).resolve().parent)):
        return True
    try:
        rel = resolved.relative_to(Path(root).resolve())
    except (ValueError, OSError):
        return False
    return not rel.parts or rel.parts[0] not in (".venv", "venv", ".snakemake")


def explain_traceback(frames, exception, root, frames_shown=2):
    """The last frames in the project's own files (entries, scripts, templates,
    src), then the exception; library frames are left out."""
    kind = exception[0].split(":", 1)[0] if exception else ""
    if kind.rsplit(".", 1)[-1] in TOLD:
        return [exception[0].split(": ", 1)[-1]] + [line.strip() for line in exception[1:3]]
    own = []
    for path, line, func, code in frames:
        path, line = script_frame(path, line, code, root)
        if is_project(path, root):
            own.append((shown(path, root), line, func, code))
    out = []
    for path, line, func, code in own[-frames_shown:]:
        where = f"{path}, line {line}" if line else path
        out.append(f"{where}, in {func}" if func != "<module>" else where)
        if code:
            out.append("    " + code[:100])
    return out + exception[:2]


def tex_source(tex, root):
    """'templates/figures/line.tex.j2' for logs/figure/<entry>/<figure>.tex (rule figure)."""
    m = re.match(r"logs/figure/([a-z0-9-]+)/([a-z0-9-]+)\.tex$", tex)
    if not m:
        return None
    try:
        config = yaml.safe_load((Path(root) / "config.yaml").read_text())
        md = Path(root) / config["entries_dir"] / m.group(1) / "entry.md"
        meta, _ = split_front_matter(md.read_text(encoding="utf-8"), md)
        fig = next(f for f in meta["figures"] if f["name"] == m.group(2))
    except Exception:   # only a hint: an entry that cannot be read is told elsewhere
        return None
    if fig.get("source"):
        return f"{config['entries_dir']}/{m.group(1)}/{fig['source']}"
    return f"templates/figures/{fig['kind']}.tex.j2"


def explain_log(path, root):
    """What a failed job's log says, in a few lines."""
    text = Path(path).read_text(errors="replace") if Path(path).is_file() else ""
    parsed = parse_traceback(text)
    if parsed and parsed[1]:
        lines = explain_traceback(*parsed, root)
        tex = re.match(r"(\S+\.tex):\d+:", lines[0]) if lines else None
        source = tex and tex_source(tex.group(1), root)
        if source:
            lines.insert(1, f"(the .tex is written from {source} by rule figure)")
        return lines
    return [line.strip() for line in text.splitlines() if line.strip()][-3:]


def told_error(path, root):
    """The one line a failed job's log ends with: its error's own message (an exception the project
    tells, the exception's line otherwise), else the log's last line."""
    text = Path(path).read_text(errors="replace") if Path(path).is_file() else ""
    parsed = parse_traceback(text)
    if parsed and parsed[1]:
        line = parsed[1][0]
        kind = line.split(":", 1)[0].rsplit(".", 1)[-1]
        return line.split(": ", 1)[-1] if kind in TOLD else line
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else None


def told_mistakes(found):
    """The report of a dictionary's mistakes (glossary.errors.report), under one line saying what it is."""
    n = len(set(found))
    head = (f"error: {n} mistake{'s' if n != 1 else ''} in the dictionary's sources (file:line:column); "
            "nothing was built:")
    return head + "\n" + errors.report(found)


def error_message(event):
    """The lines of a workflow error event (an exception before or outside any job): Snakemake
    formats it as '<Exception> in file ..., line N:', the message, then the frames."""
    lines = [line for line in (event.get("message") or "").splitlines() if line.strip()]
    body = [line for line in lines[1:] if not line.startswith("  File ")] or lines[:1]
    where = lines[0] if lines and " in file " in lines[0] else None
    # a report of mistakes (common.smk's, glossary.errors.report) is already capped: shown whole
    shown = len(body) if any(REPORT_END.match(line.strip()) for line in body) else 3
    out = [f"error: {body[0].strip()}"] + ["  " + line.strip() for line in body[1:shown]]
    if where and event.get("exception") not in TOLD + ("WorkflowError",):
        out.append(f"  ({where.rstrip(':')})")
    return out


def failure_summary(events, stderr="", root=None):
    """A few lines (at most MAX_LINES - 1) naming what failed and where to look, from Snakemake's
    events (the glossary logger plugin's JSON lines), then one line for each further failed job (the
    build runs with --keep-going: every failing job of the run), with its error."""
    root = Path(root or os.getcwd())
    lines = [f"error: {tool} is missing; install Debian's {pkg}: apt-get install {pkg}"
             for tool, pkg in missing_tools()]
    jobs = [e for e in events if e.get("event") == "job_error"]
    messages = {e.get("jobid"): e.get("rule_msg") for e in events if e.get("event") == "job_info"}
    more = []
    for n, job in enumerate(jobs):
        rule, logs = job.get("rule_name"), [str(log) for log in job.get("log") or []]
        shown_logs = [shown(root / log, INVOKED) for log in logs]
        what = job.get("rule_msg") or messages.get(job.get("jobid")) or ", ".join(job.get("output") or [])
        if n > 0:   # --keep-going: every failed job of the run, each with its own error in one line
            told = next((t for t in (told_error(root / log, root) for log in logs) if t), None)
            more.append(f"also failed: rule {rule} ({what})" + (f": {told}" if told else "")
                        + (f"; log: {shown_logs[0]}" if logs else ""))
            continue
        lines.append(f"error: rule {rule} failed ({what})")
        detail = []
        for log in logs:
            detail = explain_log(root / log, root)
            if detail:
                break
        if not detail and job.get("shellcmd"):
            detail = [job["shellcmd"].strip()]
        lines += ["  " + line for line in detail]
        if logs and not any("log: " in line for line in detail):
            lines.append(f"  log: {', '.join(shown_logs)}")
    if not jobs:
        failed = [e for e in events if e.get("event") == "error"]
        if failed:
            lines += error_message(failed[0])
        else:   # an error Snakemake's logger never saw (the workflow exited while it loaded)
            lines += [line for line in stderr.strip().splitlines() if line.strip()][-(MAX_LINES - 2):]
    if len(lines) > MAX_LINES - 1 and not any(REPORT_END.match(line.strip()) for line in lines):
        lines = lines[:MAX_LINES - 2] + [f"  ... ({len(lines) - MAX_LINES + 2} more lines left out)"]
    if len(more) > SHOWN_JOBS:
        more = more[:SHOWN_JOBS] + [f"... and {len(more) - SHOWN_JOBS} more failed jobs"]
    return lines + more


# --- the lock -----------------------------------------------------------------------

@contextlib.contextmanager
def build_lock(wait=False):
    """One build at a time in this folder (make site, make slurm, the preview); yields the lock's
    file descriptor, which Snakemake inherits so that the lock lives as long as the build does."""
    LOCK.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise BuildBusy("another build (make site, make slurm or make serve) is running in this "
                            "folder; wait for it to end") from None
        yield fd
    finally:
        os.close(fd)


def snakemake_processes(folder="."):
    """Snakemake processes (but this one) whose working folder is `folder`."""
    import psutil  # 7 ms: only a build that finds the lock held asks, not the no-op
    here, found = Path(folder).resolve(), []
    for proc in psutil.process_iter(["pid", "cmdline", "cwd"]):
        info = proc.info
        argv = info.get("cmdline") or []
        # the `snakemake` program itself (its jobs' scripts only live under .snakemake/)
        main = [Path(a).name for a in argv[:2]] + [" ".join(argv[1:3])]
        if info["pid"] != os.getpid() and ("snakemake" in main or "-m snakemake" in main) and info.get("cwd") \
                and Path(info["cwd"]).resolve() == here:
            found.append(info["pid"])
    return found


def lift_stale_lock(command, env):
    """Snakemake refused to start because its folder is locked: lift the lock when no Snakemake
    process holds the folder (a killed build left it); True when lifted.  `command` is the build's
    own: in another folder (OUT=) Snakemake finds the workflow only through its --snakefile."""
    if snakemake_processes():
        return False
    subprocess.run([*command, "--unlock", "--quiet"], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return not any(Path(".snakemake/locks").glob("*.lock"))


# --- running Snakemake --------------------------------------------------------------

class Outcome:
    """What a Snakemake run came to: ok, the failure summary (lines), interrupted, its events."""

    def __init__(self, status, events, stderr):
        self.status, self.events, self.stderr = status, events, stderr
        self.ok = status == 0
        self.interrupted = status == 130
        self.summary = [] if self.ok else (["interrupted"] if self.interrupted else failure_summary(events, stderr))

    @property
    def locked(self):
        return any(e.get("event") == "error" and e.get("exception") == "LockException" for e in self.events)


class Progress:
    """`[done/total] message` per job started, with the time left once the build has run a while."""

    def __init__(self, show):
        self.show, self.done, self.total, self.start = show, 0, None, time.monotonic()

    def eta(self):
        elapsed = time.monotonic() - self.start
        if not self.total or not self.done or elapsed < ETA_AFTER:
            return None
        return elapsed / self.done * (self.total - self.done)

    def __call__(self, event):
        kind = event.get("event")
        if kind == "run_info":
            self.total = (event.get("stats") or {}).get("total")
        elif kind == "progress":
            self.done, self.total = event["done"], event["total"]
        elif kind == "job_info" and event.get("rule_msg") and self.show:
            eta = self.eta()
            left = f"  (~{eta:.0f} s left)" if eta is not None else ""
            width = len(str(self.total or 0))
            print(f"  [{self.done:>{width}}/{self.total or '?'}] {event['rule_msg']}{left}", flush=True)


# The folder of the Snakefile: this clone, or an installed package's copy (glossary.assets).
REPO = assets.ROOT


def snakemake_program():
    """Snakemake as this interpreter runs it: the `snakemake` script beside it (a venv, pipx), else `python -m
    snakemake` (a `pip install --user` puts scripts in ~/.local/bin, a venv layered on another has none)."""
    script = Path(sys.executable).with_name("snakemake")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "snakemake"]


def snakemake_command(cores, profile, extra, source=None, config=()):
    # --keep-going: a failing job does not stop the others, so one run tells every failing job
    command = [*snakemake_program(), "--logger", "glossary", "--rerun-incomplete", "--keep-going"]
    command += ["--profile", profile] if profile else ["--cores", str(cores)]
    if Path.cwd().resolve() != REPO:
        # building in another folder (OUT=): the workflow and its profile stay in the repository
        command += ["--snakefile", str(REPO / "Snakefile"), "--workflow-profile", str(REPO / "profiles/default")]
    if source:
        command += ["--config", f"source={source}", *config]
    # Trained results are shared between clones when SNAKEMAKE_OUTPUT_CACHE names a folder.
    if os.environ.get("SNAKEMAKE_OUTPUT_CACHE"):
        command.append("--cache")
    return command + list(extra)


def snakemake_env():
    """Snakemake finds the logger plugin (src/snakemake_logger_plugin_glossary) on PYTHONPATH."""
    env = dict(os.environ)
    src = str(assets.SRC)
    env["PYTHONPATH"] = os.pathsep.join([src] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def _run_once(command, env, lock_fd, on_event, on_start=None, checked=None):
    # GLOSSARY_EVENTS=<file>: the events are also appended there, with the seconds since the start
    # (`make bench` and the tests read which jobs ran, and for how long).
    record = open(os.environ["GLOSSARY_EVENTS"], "a", encoding="utf-8") if os.environ.get("GLOSSARY_EVENTS") else None
    start = time.monotonic()
    fds = (lock_fd,)
    if checked:
        # Snakemake starts while checked() runs, and waits for its answer before it reads the plan
        waiting, telling = os.pipe()
        env, fds = dict(env, **{plan.CHECKED_FD: str(waiting)}), (lock_fd, waiting)
    # A caller that stops Snakemake itself (the preview: on_start) starts it in its own process group, so
    # that it can signal, and at last kill, Snakemake and its jobs together.
    try:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                errors="replace", env=env, pass_fds=fds, start_new_session=on_start is not None)
    finally:
        if checked:
            os.close(waiting)
    if on_start:
        on_start(proc)
    stderr = []
    reader = threading.Thread(target=lambda: stderr.extend(proc.stderr), daemon=True)
    reader.start()
    events = []
    if checked:
        go = False
        try:
            go = checked()
        finally:
            try:
                os.write(telling, b"go" if go else b"stop")
            except BrokenPipeError:     # Snakemake ended before it asked: its outcome says why
                pass
            os.close(telling)
            if not go:
                # it ends at once, its error unread: the check's mistakes are what the build tells
                proc.stdout.read()
                proc.wait()
                reader.join(timeout=5)
                if record:
                    record.close()
        if not go:
            return None
    try:
        for line in proc.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                stderr.append(line)      # not an event: printed by something else
                continue
            events.append(event)
            if record:
                record.write(json.dumps(dict(event, t=round(time.monotonic() - start, 3)), sort_keys=True) + "\n")
            if on_event:
                on_event(event)
        status = proc.wait()
    except KeyboardInterrupt:
        proc.wait()     # Snakemake got the interrupt too and stops its jobs
        status = 130
    finally:
        if record:
            record.close()
    reader.join(timeout=5)
    return Outcome(status, events, "".join(stderr))


def run_snakemake(cores=2, extra=(), on_event=None, profile=None, lock_fd=None, wait=False, source=None, config=(),
                  on_start=None, checked=None):
    """Run Snakemake on the staged site (results/site) without publishing; returns an Outcome.
    on_event(dict) gets every event of the glossary logger plugin. Takes the build lock unless the
    caller holds it (lock_fd); wait=True waits for a running build instead of refusing. on_start(Popen),
    when given, gets each Snakemake process as it starts, in a process group of its own: the caller
    stops it (a terminal's Ctrl-C no longer reaches it).  checked(), when given, runs as Snakemake
    starts, which reads the plan only once it has returned True (plan.wait_for_check); when it returns
    False, Snakemake ends there and run_snakemake returns None."""
    if lock_fd is None:
        with build_lock(wait=wait) as fd:
            return run_snakemake(cores, extra, on_event, profile, fd, source=source, config=config,
                                 on_start=on_start, checked=checked)
    command, env = snakemake_command(cores, profile, extra, source, config), snakemake_env()
    if not DRY_RUN & set(extra):
        # the lock is held: no job writes a batch's folder while a broken or stale one is removed
        plan.mend_batch_folders()
    outcome = _run_once(command, env, lock_fd, on_event, on_start, checked)
    if outcome is None:
        return None
    if outcome.locked and lift_stale_lock(command, env):
        print("note: lifted the lock an interrupted build left", flush=True)
        outcome = _run_once(command, env, lock_fd, on_event, on_start)
    elif outcome.locked and snakemake_processes():
        outcome.summary = ["error: a Snakemake process is running in this folder (pid "
                           f"{', '.join(map(str, snakemake_processes()))}); wait for it to end"]
    elif outcome.locked:
        outcome.summary = [f"error: Snakemake's lock in {Path.cwd() / '.snakemake/locks'} could not be lifted; "
                           "no Snakemake process runs here, so remove that folder's files and build again"]
    return outcome


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", default=os.environ.get("CORES", "2"))
    parser.add_argument("--profile", default=None, help="a Snakemake profile (make slurm: profiles/slurm)")
    parser.add_argument("--source", default=os.environ.get("SOURCE") or None,
                        help="a dictionary's glossaries-extra main .tex file, or a YAML file naming one")
    parser.add_argument("--out", default=os.environ.get("OUT") or None,
                        help="the folder to build in (the site goes to OUT/site); default: this repository, "
                             "or _build in the dictionary's folder for the glossary command")
    parser.add_argument("--editions", default=os.environ.get("EDITIONS") or None,
                        help='the translations of a dictionary: "de=<main .tex file> ..." (glossary.editions)')
    parser.add_argument("snakemake_args", nargs="*")
    args = parser.parse_args(argv)
    source = plan.Source(Path(args.source).resolve() if args.source else None)
    if source and not source.path.is_file():
        print(f"error: SOURCE={args.source}: no such file; name the dictionary's main .tex file or its "
              "YAML file", file=sys.stderr)
        return 1
    # a profile given as a folder is named from here: the build may run elsewhere (--out)
    profile = str(Path(args.profile).resolve()) if args.profile and Path(args.profile).is_dir() else args.profile
    # the no-op, before the YAML file is checked: the stamp holds the bytes the last build checked (where
    # quick is given, it is the roots below, and the stamp is not compared with them again)
    quick = None if args.snakemake_args or args.editions else source.roots_unchecked(REPO)
    if quick and (not args.out or Path(args.out).is_dir()):
        with working_folder(args.out or "."):
            if stamp.is_fresh(".", quick):
                print(f"site up to date: open {shown_site()}/index.html")
                return 0
    try:
        runs = plan.edition_runs(source, args.editions)
    except ValueError as err:        # EditionError, EntryError: they say what to fix
        print(f"error: {err}", file=sys.stderr)
        return 1
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        os.chdir(args.out)
    roots = source.roots(REPO)
    if len(runs) > 1:
        plan.write_editions(runs)
        roots += [(str(Path(r["source"]).parent), ["."]) for r in runs[1:]] + [(".", [editions.PLAN])]
    if not args.snakemake_args and quick is None and stamp.is_fresh(".", roots):
        print(f"site up to date: open {shown_site()}/index.html")     # nothing the build reads has changed
        return 0
    # hashed before the dictionary is read and the build starts: an edit made meanwhile is not "built", and
    # the read kept for the plan (plan.READ_MEMO) is not taken for the edited sources'
    hashed = stamp.source_hashes(roots, stamp.known_sources())
    site_shown = shown_site()

    def checked():
        """Every mistake of every edition, told at once before any job runs (glossary.dictionary.check)."""
        found = dictionary.check_editions(runs, memo=(plan.READ_MEMO, stamp.read_key(hashed), lambda: stamp.read_key(
            stamp.source_hashes(roots, stamp.known_sources()))))
        if found:
            print(told_mistakes(found), file=sys.stderr)
            print(f"{site_shown}/ was left as it was.", file=sys.stderr)
            return False
        note = source.title_note()
        if note:
            print(note, file=sys.stderr, flush=True)
        return True
    # Snakemake starts while the dictionary is checked where a check passed before (its read is kept):
    # an edit's build; a first build checks first, and a mistake leaves its folder as it was
    early = bool(source) and Path(plan.READ_MEMO).is_file()
    if source and not early and not checked():
        return 1
    try:
        with build_lock() as fd:
            for i, run in enumerate(runs):
                if len(runs) > 1:
                    print(f"the {run['lang']} edition ({run['folder']})", flush=True)
                # One Snakemake run: the catalog is a checkpoint (workflow/rules/prose.smk), so a rewrite of it
                # that leaves a reader's input as it was reruns no reader.  The first starts while the
                # dictionary is checked (in this folder: its read is kept for the plan, plan.READ_MEMO).
                with working_folder(run["folder"]):
                    outcome = run_snakemake(args.cores, args.snakemake_args, Progress(show=True), profile, fd,
                                            source=run["source"], config=run.get("config", ()),
                                            checked=checked if early and not i else None)
                if outcome is None:
                    return 1
                if not outcome.ok:
                    if len(runs) > 1:
                        print(f"in the {run['lang']} edition ({run['folder']}):", file=sys.stderr)
                    print("\n".join(outcome.summary), file=sys.stderr)
                    print(f"{site_shown}/ was left as it was.", file=sys.stderr)
                    return 1
            if DRY_RUN & set(args.snakemake_args):
                print(f"a dry run: nothing was built, {site_shown}/ was left as it was")
                return 0
            published = {}      # the new site's files' stats, which the stamp records without a walk
            try:
                changed = publish.publish(STAGED, SITE, {r["prefix"]: Path(r["folder"]) / STAGED for r in runs[1:]},
                                          stats=published)
            except publish.Unbuilt as err:     # a dry run, --until: the plan's site is not all there
                print(f"error: {err}\n{site_shown}/ was left as it was.", file=sys.stderr)
                return 1
            if not args.snakemake_args:
                stamp.record(".", hashed, published)
            for run in runs:
                with working_folder(run["folder"]):
                    tell_unknown()
    except BuildBusy as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"site {'published' if changed else 'unchanged'}: open {shown_site()}/index.html")
    return 0


@contextlib.contextmanager
def working_folder(folder):
    """Each edition's Snakemake runs in its own folder (results/, .snakemake/ of its own)."""
    here = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(here)


def tell_unknown():
    """The catalog's note on constructs the readers did not know (glossary.catalog)."""
    path = Path(plan.CATALOG)
    note = catalog.unknown_note(jsonio.read_compact(path)) if path.is_file() else None
    if note:
        print(note, flush=True)


def shown_site():
    """site/ as the user's shell names it: relative to the repository when the build ran elsewhere."""
    here = Path.cwd().resolve()
    if here == REPO:
        return str(SITE)
    return os.path.relpath(here / SITE, REPO) if (here / SITE).is_relative_to(REPO) else str(here / SITE)


if __name__ == "__main__":
    sys.exit(main())
