"""`make site`: build the staged site with Snakemake, then publish it to site/ in one step.

On a failure it prints a short account instead of Snakemake's whole output (at
most ten lines: the failed rule, the file and line at fault, the error, the log
to read), and leaves site/ exactly as it was.  A build that was killed is
finished by the next one: jobs it left half done are rerun
(--rerun-incomplete), and Snakemake's lock is lifted when no build holds it.

Two cases skip Snakemake, whose start alone takes seconds: nothing changed
since the last build (glossary.stamp), and an edit of entries' prose only,
whose pages are rendered again in this process (glossary.quick).
"""
import argparse
import contextlib
import fcntl
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from glossary import publish, stamp

STAGED, SITE = publish.STAGED, publish.SITE
# Held by the running build (and its Snakemake) for as long as they live: the kernel
# lets go of it when they die, however they die.
LOCK = Path(".snakemake/glossary-build.lock")
MAX_LINES = 10

# The programs and TeX files the build needs, and the Debian package of each.
PROGRAMS = {"pdflatex": "texlive-latex-base", "kpsewhich": "texlive-binaries",
            "pdftocairo": "poppler-utils", "pdftoppm": "poppler-utils"}
TEX_FILES = {"pgfplots.sty": "texlive-pictures", "standalone.cls": "texlive-latex-extra"}

# The exceptions whose message already says what to fix and where: shown alone.
TOLD = ("LatexError", "EntryError")


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
    """The last Python traceback in text: ([(file, line, function, code)], exception lines)."""
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
    exception = [l for l in lines[i:] if l.strip()]
    return frames, exception


def script_frame(path, line, code, root):
    """Snakemake runs a rule's script from a temporary copy (.snakemake/scripts/tmpXXXX.page.py):
    name scripts/page.py instead, at the line that holds the same code."""
    m = re.search(r"\.snakemake/scripts/tmp\w+\.(\w+\.py)$", path)
    if not m:
        return path, line
    original = Path(root) / "scripts" / m.group(1)
    if original.is_file() and code:
        for n, text in enumerate(original.read_text(errors="replace").splitlines(), 1):
            if text.strip() == code:
                return str(original), n
    return str(original), None


def is_project(path, root):
    resolved = Path(path)
    if not resolved.is_absolute():
        resolved = Path(root) / resolved
    try:
        rel = resolved.resolve().relative_to(Path(root).resolve())
    except (ValueError, OSError):
        return False
    return not rel.parts or rel.parts[0] not in (".venv", "venv", ".snakemake")


def explain_traceback(frames, exception, root, frames_shown=2):
    """The last frames in the project's own files (entries, scripts, templates,
    src), then the exception; library frames are left out."""
    kind = exception[0].split(":", 1)[0] if exception else ""
    if kind.rsplit(".", 1)[-1] in TOLD:
        return [exception[0].split(": ", 1)[-1]] + [l.strip() for l in exception[1:3]]
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
    """'templates/figures/line.tex.j2' for results/<entry>/figures/<figure>.tex."""
    m = re.match(r"results/([a-z0-9-]+)/figures/([a-z0-9-]+)\.tex$", tex)
    if not m:
        return None
    try:
        import yaml
        from glossary.entries import split_front_matter
        config = yaml.safe_load((Path(root) / "config.yaml").read_text())
        md = Path(root) / config["entries_dir"] / m.group(1) / "entry.md"
        meta, _ = split_front_matter(md.read_text(encoding="utf-8"), md)
        kind = next(f["kind"] for f in meta["figures"] if f["name"] == m.group(2))
    except Exception:   # only a hint: an entry that cannot be read is told elsewhere
        return None
    return f"templates/figures/{kind}.tex.j2"


def explain_log(path, root):
    """What a failed job's log says, in a few lines."""
    text = Path(path).read_text(errors="replace") if Path(path).is_file() else ""
    parsed = parse_traceback(text)
    if parsed and parsed[1]:
        lines = explain_traceback(*parsed, root)
        tex = re.match(r"(results/\S+\.tex):\d+:", lines[0]) if lines else None
        source = tex and tex_source(tex.group(1), root)
        if source:
            lines.insert(1, f"(the .tex is written from {source} by rule figure_tex)")
        return lines
    return [l.strip() for l in text.splitlines() if l.strip()][-3:]


def failed_jobs(output):
    """[(rule, jobid, fields)] for each 'Error in rule' block of Snakemake's output."""
    jobs, seen = [], set()
    for m in re.finditer(r"^Error in rule (\w+):\n((?:[ \t]+.*\n?)*)", output, re.M):
        fields = dict(re.findall(r"^\s+(\w+): (.*)$", m.group(2), re.M))
        key = fields.get("jobid") or m.group(0)
        if key not in seen:
            seen.add(key)
            jobs.append((m.group(1), fields.get("jobid"), fields))
    return jobs


# What Snakemake says at every start, failed or not: no part of an error.
CHATTER = re.compile(r"Using (workflow specific )?profile|Workflow defines that rule \w+ is eligible for caching|"
                     r"Assuming unrestricted shared filesystem usage")


def failure_summary(output, root=None):
    """A few lines (at most MAX_LINES - 1) naming what failed and where to look."""
    root = Path(root or os.getcwd())
    messages = dict(re.findall(r"^Job (\d+): (.+)$", output, re.M))
    lines = [f"error: {tool} is missing; install Debian's {pkg}: apt-get install {pkg}"
             for tool, pkg in missing_tools()]
    jobs = failed_jobs(output)
    for n, (rule, jobid, fields) in enumerate(jobs):
        what = messages.get(jobid) or fields.get("output", "").split(",")[0]
        logs = [l.strip() for l in re.sub(r"\s*\(check log file.*\)$", "", fields.get("log", "")).split(",")
                if l.strip()]
        if n > 0:
            lines.append(f"also failed: rule {rule} ({what})" + (f"; log: {logs[0]}" if logs else ""))
            continue
        lines.append(f"error: rule {rule} failed ({what})")
        detail = []
        for log in logs:
            detail = explain_log(root / log, root)
            if detail:
                break
        if not detail and fields.get("shell"):
            detail = [fields["shell"].strip()]
        lines += ["  " + l for l in detail]
        if logs and not any("log: " in l for l in detail):
            lines.append(f"  log: {', '.join(logs)}")
    if not jobs:
        # An error before any job ran: a bad entry, config.yaml or workflow file.
        m = re.search(r"^(\w+(?:Error|Exception))(?: in file \"?(.+?)\"?, line (\d+))?:\n(.+?)(?:\n  File |\n\n|\Z)",
                      output, re.M | re.S)
        if m:
            lines.append("error: " + m.group(4).strip().splitlines()[0])
            lines += ["  " + l for l in m.group(4).strip().splitlines()[1:3]]
            if m.group(2) and m.group(1) != "WorkflowError":
                lines.append(f"  ({m.group(1)} in {shown(m.group(2), root)}, line {m.group(3)})")
        else:
            lines += [l for l in output.strip().splitlines() if l.strip() and not CHATTER.match(l)][-(MAX_LINES - 2):]
    if len(lines) > MAX_LINES - 1:
        lines = lines[:MAX_LINES - 2] + [f"  ... ({len(lines) - MAX_LINES + 2} more lines left out)"]
    return "\n".join(lines)


# --- the build ----------------------------------------------------------------------

@contextlib.contextmanager
def build_lock():
    """One build at a time in this folder; yields the lock's file descriptor."""
    LOCK.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SystemExit("error: another `make site` is running in this folder; wait for it to end") from None
        yield fd
    finally:
        os.close(fd)


def lift_stale_lock(snakemake):
    """Snakemake's own lock, left by a build that was killed: no build holds ours,
    so no Snakemake is running here and the lock can go."""
    locks = Path(".snakemake/locks")
    if locks.is_dir() and any(locks.iterdir()):
        subprocess.run([str(snakemake), "--unlock", "--quiet"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        print("note: lifted the lock an interrupted build left")


def run_snakemake(command, lock_fd):
    """Run Snakemake, showing one line per job started; returns (exit status, output)."""
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            errors="replace", pass_fds=(lock_fd,))
    output = []
    try:
        for line in proc.stdout:
            output.append(line)
            job = re.match(r"Job \d+: (.+)$", line)
            if job:
                print(f"  {job.group(1)}", flush=True)
        return proc.wait(), "".join(output)
    except KeyboardInterrupt:
        proc.wait()     # Snakemake got the interrupt too and stops its jobs
        return 130, "".join(output)


def quick_build(hashed):
    """A prose-only edit: replay the page jobs (glossary.quick) and publish; None when it is not one."""
    from glossary import quick
    try:
        jobs, _ = quick.plan(hashed)
    except Exception as err:
        from glossary.entries import EntryError     # loaded by then, when plan() read an entry
        if not isinstance(err, EntryError):
            raise
        print(f"error: {err}\n{SITE}/ was left as it was.", file=sys.stderr)
        return 1
    if jobs is None:
        return None
    for job, records in jobs:
        print(f"  {job['slug']}: HTML page (prose only: replayed without Snakemake)", flush=True)
        try:
            quick.replay([(job, records)])
        except Exception:
            import traceback
            parsed = parse_traceback(traceback.format_exc())
            lines = [f"error: rule page failed ({job['slug']}: HTML page)"]
            lines += ["  " + l for l in explain_traceback(*parsed, os.getcwd())]
            print("\n".join(lines[:MAX_LINES - 1]) + f"\n{SITE}/ was left as it was.", file=sys.stderr)
            return 1
    changed = publish.publish(STAGED, SITE)
    stamp.record(".", hashed)
    print(f"site {'published' if changed else 'unchanged'}: open {SITE}/index.html")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", default=os.environ.get("CORES", "2"))
    parser.add_argument("snakemake_args", nargs="*")
    args = parser.parse_args(argv)
    if not args.snakemake_args and stamp.is_fresh():
        print(f"site up to date: open {SITE}/index.html")     # nothing the build reads has changed
        return 0
    snakemake = Path(sys.executable).with_name("snakemake")
    # Trained results are shared between clones when SNAKEMAKE_OUTPUT_CACHE names a folder.
    cache = ["--cache"] if os.environ.get("SNAKEMAKE_OUTPUT_CACHE") else []
    with build_lock() as fd:
        hashed = stamp.source_hashes()   # before the build starts: an edit made meanwhile is not "built"
        if not args.snakemake_args:
            status = quick_build(hashed)
            if status is not None:
                return status
        lift_stale_lock(snakemake)
        status, output = run_snakemake([str(snakemake), "--cores", str(args.cores), "--rerun-incomplete",
                                        *cache, *args.snakemake_args], fd)
        if status != 0:
            print(failure_summary(output) if status != 130 else "interrupted", file=sys.stderr)
            print(f"{SITE}/ was left as it was.", file=sys.stderr)
            return 1
        changed = publish.publish(STAGED, SITE)
        if not args.snakemake_args:
            stamp.record(".", hashed)
    print(f"site {'published' if changed else 'unchanged'}: open {SITE}/index.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())
