"""`make bench`'s rows on the real dictionary (../shared/adictml, glossaries-extra LaTeX, 569 terms).

What a site build of a dictionary kept elsewhere costs against the authors' own build:

  latexmk  `latexmk -pdf ADictML_Main.tex` on a clean copy (the authors' book), and one more
           pdflatex run of it (what an author waits for after an edit)
  site     `python -m glossary.build --source <dictionary.yaml> --out <folder>` (make site SOURCE= OUT=):
           the clean build (jobs, ratio to latexmk), its peak memory, the no-op, a one-word edit of one
           term's description (after its first sentence), one of its first sentence (the summary other
           pages show), and an edit through the preview (save to screen)

The authors' book needs more TeX than the site (texlive-science, texlive-publishers,
texlive-plain-generic, cm-super); kpathsea variables given as LATEXMK_<NAME> (LATEXMK_TEXINPUTS=...,
LATEXMK_TEXFONTMAPS=...) reach latexmk and pdflatex only, as <NAME>, so the site builds beside them are
not changed by them.  Both builds read the same copy: scripts/real_dictionary.py's. Skipped with
the reason printed when the dictionary is absent, or with BENCH_DICTIONARY=0. Run alone:
`PARTS=dictionary make bench`.
"""
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PY = sys.executable
PART = "dictionary"
MAIN = "ADictML_Main.tex"
# A term whose description gets the one-word edit, and the file that defines it.
EDITED_FILE, EDITED_KEY = "ADictML_CoreML.tex", "loss"
# What the authors' book needs beyond the project's Debian packages, by the message of its failure.
TEX_HINTS = {"algorithm.sty": "texlive-science", "algpseudocode.sty": "texlive-science",
             "IEEEtrantools.sty": "texlive-publishers", "IEEEtran.bst": "texlive-publishers",
             "tracklang.sty": "texlive-plain-generic", "auto expansion is only possible": "cm-super"}


def real_dictionary():
    """scripts/real_dictionary.py as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("real_dictionary", REPO / "scripts/real_dictionary.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def prepare(dest):
    """A fixed copy of the real dictionary in dest (scripts/real_dictionary.py); returns its
    dictionary.yaml."""
    return real_dictionary().prepare(dest)


def one_word_edit(root, in_summary):
    """Change one word of EDITED_KEY's description (a plain word of 5+ letters, outside any macro):
    the first word of its first sentence (the summary, which other pages show), or the first one
    after that sentence (an edit that only the term's own page, PDF and the book show).
    Returns (word, new word, line)."""
    path = root / EDITED_FILE
    text = path.read_text(encoding="utf-8")
    start = text.index(r"\newglossaryentry{" + EDITED_KEY + "}")
    at = text.index("description={", start)
    if not in_summary:
        at = re.compile(r"[.!?]\s").search(text, at).end()      # past the first sentence
    word = re.compile(r"(?<= )[a-z]{5,}(?=[ ,.])").search(text, at)
    new = word.group(0)[::-1]       # the same length, and no word of the dictionary
    path.write_text(text[:word.start()] + new + text[word.end():], encoding="utf-8")
    return word.group(0), new, text.count("\n", 0, word.start()) + 1


def tree_rss(pid):
    """Resident bytes of pid and all its descendants now (from /proc)."""
    parents, rss = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue        # the process ended meanwhile
        parents[int(stat.parent.name)] = int(fields[1])
        rss[int(stat.parent.name)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    total = 0
    for proc in rss:
        ancestor = proc
        while ancestor not in (pid, 0, 1) and ancestor in parents:
            ancestor = parents[ancestor]
        total += rss[proc] if ancestor == pid else 0
    return total


def run(cmd, cwd, env=None, sample=False):
    """Run cmd with its output in a file: (seconds, exit code, output, largest process's peak bytes
    (wait4's ru_maxrss), peak bytes of the whole process tree sampled every 0.2 s (or None))."""
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        peak, done = [0], threading.Event()

        def watch():
            while not done.wait(0.2):
                peak[0] = max(peak[0], tree_rss(proc.pid))
        watcher = threading.Thread(target=watch, daemon=True)
        if sample:
            watcher.start()
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        done.set()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return seconds, proc.returncode, out.read(), usage.ru_maxrss * 1024, peak[0] if sample else None


def tex_hint(text):
    """'; install Debian's <package>' for the first missing piece of TeX named in a log, or ''."""
    for needle, package in TEX_HINTS.items():
        if needle in text:
            return f"{needle}: missing; install Debian's {package} (apt-get install {package})"
    missing = re.search(r"File `([^']+)' not found", text)
    return f"{missing.group(1)} not found" if missing else ""


def latexmk_env():
    """The environment of the authors' build: LATEXMK_<NAME>=value given as <NAME>=value."""
    return dict(os.environ, **{k.removeprefix("LATEXMK_"): v for k, v in os.environ.items()
                               if k.startswith("LATEXMK_")})


def latexmk_rows(row, base):
    """The authors' own build from a clean copy, and one more pdflatex run: (latexmk s, pdflatex s)."""
    if not shutil.which("latexmk"):
        row(PART, "authors' book: latexmk -pdf (clean copy)", "n/a", "",
            "latexmk is missing: install Debian's latexmk (apt-get install latexmk)")
        return None, None
    root = base / "authors"
    prepare(root)
    cmd = ["latexmk", "-pdf", "-interaction=nonstopmode", MAIN]
    seconds, code, output, _, _ = run(cmd, root, latexmk_env())
    pdf, log = root / "ADictML_Main.pdf", (root / "ADictML_Main.log")
    log_text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    if not pdf.exists():
        row(PART, "authors' book: latexmk -pdf (clean copy)", "n/a", "",
            f"no PDF after {seconds:.0f} s: " + (tex_hint(output + log_text) or f"exit {code}"))
        return None, None
    runs = Counter(re.findall(r"Run number \d+ of rule '(pdflatex|bibtex|makeindex)", output))
    pages = re.search(r"Output written on \S+ \((\d+) pages", log_text)
    errors = len(re.findall(r"^! ", log_text, re.M))
    row(PART, "authors' book: latexmk -pdf (clean copy)", seconds, sum(runs.values()),
        "; ".join([", ".join(f"{tool}×{n}" for tool, n in sorted(runs.items())),
                   f"{pages.group(1) if pages else '?'} pages"]
                  + ([f"latexmk exit {code}: pdflatex reported {errors} errors (nonstopmode)"] if code else [])))
    once, _, _, _, _ = run(["pdflatex", "-interaction=nonstopmode", MAIN], root, latexmk_env())
    row(PART, "authors' book: one more pdflatex run", once, 1, "what an author waits for after an edit")
    return seconds, once


def build_cmd(config, out, cores):
    return [PY, "-m", "glossary.build", "--cores", str(cores), "--source", str(config), "--out", str(out)]


def site(config, out, cores, sample=False):
    """One `make site SOURCE= OUT=`: (seconds, {rule: jobs}, stdout, peaks); exits on failure.  Rules
    batched per group of terms (pictures_b04) are counted under their rule."""
    events = Path(tempfile.mktemp(prefix="bench-events-"))
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"), GLOSSARY_EVENTS=str(events))
    seconds, code, output, largest, tree = run(build_cmd(config, out, cores), REPO, env, sample)
    if code:
        sys.exit(f"bench: {' '.join(build_cmd(config, out, cores))} failed:\n{output[-3000:]}")
    jobs = events_jobs(events)
    events.unlink(missing_ok=True)
    return seconds, jobs, output, (largest, tree)


def events_jobs(events):
    """{rule: jobs run} from a build's events file (GLOSSARY_EVENTS); batch rules (pictures_b04) counted
    under their rule."""
    lines = Path(events).read_text().splitlines() if Path(events).exists() else []
    return Counter(re.sub(r"_b\d+$", "", e["rule_name"]) for e in map(json.loads, lines)
                   if e["event"] == "job_info" and e["rule_name"] != "all")


def summary(jobs):
    return sum(jobs.values()), ", ".join(rule + (f"×{n}" if n > 1 else "") for rule, n in sorted(jobs.items()))


def description_edit(root):
    """(path, write(i)): write(i) puts a new sentence i at the start of EDITED_KEY's description and
    returns the sentence; the file's original text is path.original."""
    path = root / EDITED_FILE
    original = path.read_text(encoding="utf-8")
    entry = original.index(r"\newglossaryentry{" + EDITED_KEY + "}")
    at = original.index("description={", entry) + len("description={")

    def write(i):
        sentence = f"Preview probe {i} of {os.getpid()} reads on the page."
        path.write_text(original[:at] + sentence + " " + original[at:], encoding="utf-8")
        return sentence
    write.original = original
    return path, write


def preview_row(row, out, config, n=10):
    """Save to screen through `make serve SOURCE= OUT=` (glossary.preview) on the built site: a new
    sentence in one term's description, until Chromium shows it on the open page (n saves)."""
    import socket

    from glossary import previewmeasure
    from glossary.browser import CHROMIUM, CHROMIUM_ARGS
    scenario = "one-word edit through the preview: save to screen"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    proc = subprocess.Popen([PY, "-m", "glossary.preview", "--port", str(port), "--source", str(config),
                             "--out", str(out)], cwd=REPO, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines = []
    threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()
    path, write = description_edit(config.parent)
    times = []
    try:
        from playwright.sync_api import sync_playwright
        previewmeasure.wait_until_built(f"http://127.0.0.1:{port}/", proc, lines, 900)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/terms/{EDITED_KEY}.html")
            for i in range(n):
                started = time.perf_counter()
                sentence = write(i)
                page.wait_for_function(previewmeasure.SHOWN, arg=sentence, polling="raf", timeout=30_000)
                times.append(time.perf_counter() - started)
                time.sleep(0.3)     # saves as an editor makes them, not a burst watchfiles batches
            browser.close()
    except Exception as err:        # a machine without Chromium still gets the other rows
        row(PART, scenario, "n/a", "", f"not measured: {' '.join(str(err).split())[:300]}")
        return
    finally:
        path.write_text(write.original, encoding="utf-8")
        previewmeasure.stop(proc)
    times_sorted = sorted(times)
    row(PART, scenario, f"{times_sorted[len(times) // 2]:.2f}", 0,
        f"median of {n}, range {times_sorted[0]:.2f}-{times_sorted[-1]:.2f} s; {EDITED_FILE}, term {EDITED_KEY}; "
        "target at most 0.5 s")


def site_rows(row, base, cores, latexmk_s, pdflatex_s):
    """The English edition's rows; returns its clean build's seconds."""
    config, out = prepare(base / "dictionary"), base / "dictionary-out"
    load = os.getloadavg()[0]
    seconds, jobs, _, (largest, tree) = site(config, out, cores, sample=True)
    clean = seconds
    total, rules = summary(jobs)
    row(PART, f"clean build: make site SOURCE= (--cores {cores})", seconds, total,
        f"{rules}; load {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    if latexmk_s:
        row(PART, "clean build / authors' latexmk", f"{seconds / latexmk_s:.2f}x", "", "target: at most 2x")
    # the reading aids on the built site: search transfer, time to first results, page loads
    reading = subprocess.run([PY, str(REPO / "scripts/bench_reading.py"), str(out / "site")], cwd=REPO,
                             env=dict(os.environ, PYTHONPATH=str(REPO / "src")), capture_output=True, text=True)
    print("\n".join("  reading: " + line for line in (reading.stdout + reading.stderr[-2000:]).splitlines()),
          file=sys.stderr, flush=True)
    row(PART, "peak memory of the clean build", f"{tree / 2**20:.0f} MiB", "",
        f"sum over the build's process tree, sampled every 0.2 s; largest single process "
        f"{largest / 2**20:.0f} MiB (wait4 ru_maxrss)")
    times = []
    for _ in range(3):
        t, code, output, _, _ = run(build_cmd(config, out, cores), REPO, dict(os.environ, PYTHONPATH=str(REPO / "src")))
        assert code == 0 and "up to date" in output, output
        times.append(t)
    row(PART, "no-op: make site SOURCE=", min(times), 0,
        "stamp matches, Snakemake not started; target at most 0.5 s; best of " + ", ".join(f"{t:.2f}" for t in times))
    target = f"; target at most one pdflatex run of the book ({pdflatex_s:.1f} s)" if pdflatex_s else ""
    for in_summary, scenario in ((False, "one-word edit of one term: make site SOURCE="),
                                 (True, "one-word edit of a term's summary: make site SOURCE=")):
        word, new, line = one_word_edit(config.parent, in_summary)
        seconds, jobs, _, _ = site(config, out, cores)
        total, rules = summary(jobs)
        row(PART, scenario, seconds, total, f"{EDITED_FILE}:{line}, term {EDITED_KEY}: {word} -> {new}; {rules}"
            + (target if not in_summary else "; the summary shows on the pages that list the term"))
    preview_row(row, out, config)
    return clean


GERMAN = "translations/de/ADictML_Glossary_German.tex"


def german_word_edit(root):
    """One word of the German edition changed (the first plain word of 6+ letters after the first
    sentence of its first term): (word, new word, line)."""
    path = root / GERMAN
    text = path.read_text(encoding="utf-8")
    at = re.compile(r"[.!?]\s").search(text, text.index("description={")).end()
    word = re.compile(r"(?<= )[a-zäöüß]{6,}(?=[ ,.])").search(text, at)
    new = word.group(0)[::-1]
    path.write_text(text[:word.start()] + new + text[word.end():], encoding="utf-8")
    return word.group(0), new, text.count("\n", 0, word.start()) + 1


def editions_rows(row, base, cores, english_s):
    """English and German in one site (docs/editions.md): the clean build, the no-op, a German edit."""
    prepare(base / "editions")
    config, out = base / "editions/editions.yaml", base / "editions-out"
    seconds, jobs, _, (largest, tree) = site(config, out, cores, sample=True)
    total, rules = summary(jobs)
    german = len(re.findall(r"\\newglossaryentry", (base / "editions" / GERMAN).read_text(encoding="utf-8")))
    row(PART, f"clean build, English and German: make site SOURCE=editions.yaml (--cores {cores})", seconds, total,
        f"{german} German terms; peak {tree / 2**20:.0f} MiB"
        + (f"; the English edition alone took {english_s:.1f} s" if english_s else ""))
    times = []
    for _ in range(3):
        t, code, output, _, _ = run(build_cmd(config, out, cores), REPO, dict(os.environ, PYTHONPATH=str(REPO / "src")))
        assert code == 0 and "up to date" in output, output
        times.append(t)
    row(PART, "no-op, two editions", min(times), 0, "best of " + ", ".join(f"{t:.2f}" for t in times))
    word, new, line = german_word_edit(base / "editions")
    seconds, jobs, _, _ = site(config, out, cores)
    total, rules = summary(jobs)
    row(PART, "one-word edit in the German edition", seconds, total, f"{GERMAN}:{line}: {word} -> {new}; {rules}")


def skipped():
    """Why the rows are skipped, or None."""
    if os.environ.get("BENCH_DICTIONARY", "1") == "0":
        return "BENCH_DICTIONARY=0"
    shared = real_dictionary().SHARED
    return None if shared.is_dir() else f"no real dictionary at {shared}"


def dictionary_part(row, base, cores=2):
    """Every row of this part, through bench.py's row(part, scenario, seconds, jobs, note)."""
    reason = skipped()
    if reason:
        row(PART, "real dictionary rows", "skipped", "", reason)
        return
    latexmk_s, pdflatex_s = latexmk_rows(row, base)
    english_s = site_rows(row, base, cores, latexmk_s, pdflatex_s)
    editions_rows(row, base, cores, english_s)
    return english_s
