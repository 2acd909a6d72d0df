"""pdflatex, run so that it reads only what it is given, its PDF is byte-stable and its errors are told in
a few lines."""
import functools
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

# The Debian package of each TeX file the figures load.
PACKAGES = {"pgfplots.sty": "texlive-pictures", "tikz.sty": "texlive-pictures", "pgf.sty": "texlive-pictures",
            "standalone.cls": "texlive-latex-extra", "mylatexformat.ltx": "texlive-latex-extra"}
INSTALL = "apt-get install texlive-latex-base texlive-latex-recommended texlive-pictures texlive-latex-extra"


class LatexError(RuntimeError):
    pass


def missing_file_hint(message):
    """'; install Debian's texlive-pictures: ...' when TeX could not find a package's file."""
    missing = re.search(r"File `([^']+)' not found", message)
    if not missing:
        return ""
    package = PACKAGES.get(missing.group(1))
    if package:
        return f"; install Debian's {package}: apt-get install {package}"
    return f"; find the Debian package that has it (apt-file search {missing.group(1)}) and install it"


# The first line of a .tex rendered from an editor's own template (a custom figure):
# errors then name that template, the file the editor can fix.
SOURCE_MARK = re.compile(r"\A% Rendered from (\S+) ")


def source_of(tex_path):
    """The template a .tex was rendered from, when its first line names one (else None)."""
    try:
        with open(tex_path, encoding="utf-8", errors="replace") as f:
            found = SOURCE_MARK.match(f.readline())
    except OSError:
        return None
    return found.group(1) if found else None


def source_line(source, tex_path, line):
    """The line of the template that reads exactly as the .tex's line `line`, when just one does."""
    try:
        text = Path(tex_path).read_text(encoding="utf-8", errors="replace").splitlines()[line - 1].strip()
        template = Path(source).read_text(encoding="utf-8", errors="replace").splitlines()
    except (OSError, IndexError):
        return None
    same = [n for n, row in enumerate(template, 1) if text and row.strip() == text]
    return same[0] if len(same) == 1 else None


def first_error(log_text, tex_path):
    """`file:line: message` for the first TeX error in a log, with the offending line
    (the template's file and line, for a .tex rendered from an editor's template)."""
    lines = log_text.splitlines()
    source = source_of(tex_path)
    for i, line in enumerate(lines):
        if line.startswith("! "):
            message = line[2:].strip()
            rest = lines[i + 1:i + 12]
            where = next((re.match(r"l\.(\d+) ?(.*)", row) for row in rest if re.match(r"l\.\d+", row)), None)
            if where and source:
                at = source_line(source, tex_path, int(where.group(1)))
                return (f"{source}{f':{at}' if at else ''}: {message} (at: {where.group(2).strip()[:60]}; "
                        f"rendered to {tex_path}:{where.group(1)})")
            if where:
                return f"{tex_path}:{where.group(1)}: {message} (at: {where.group(2).strip()[:60]})"
            return f"{source or tex_path}: {message}"
    return f"{source or tex_path}: pdflatex failed; see its log"


def first_line(*cmd):
    """The first line a command prints ("" when it prints nothing)."""
    run = subprocess.run(cmd, capture_output=True, text=True)
    return ((run.stdout or run.stderr).strip().splitlines() or [""])[0]


def versions():
    """pdflatex's version and pgfplots' revision: what the figures' format and PDFs
    depend on besides their sources ({} where pdflatex is missing)."""
    if shutil.which("pdflatex") is None or shutil.which("kpsewhich") is None:
        return {}
    revision = Path(first_line("kpsewhich", "pgfplots.revision.tex"))
    found = re.search(r"\\gdef\\pgfplotsrevision\{([^}]*)\}", revision.read_text()) if revision.is_file() else None
    return {"tex": first_line("pdflatex", "--version"), "pgfplots": found.group(1) if found else None}


# kpathsea's paranoid mode: TeX opens no name that is absolute or climbs (../) and no dot file, and
# writes only below its output folder; with shell escape off, a run reads its job folder (what
# `links` puts there), its TEXINPUTS and TeX Live's own trees, nothing else on the machine.
SANDBOX = {"openin_any": "p", "openout_any": "p"}
# What kpathsea prints when it refuses a name (on the terminal only, not in TeX's log).
REFUSED = re.compile(r"Not (?:reading from|writing to) (.+?) \(open(?:in|out)_any = p\)")
# The one output folder of a run, inside its job folder: nothing TeX writes lands beside the links.
OUT = "out"
# The name a figure's job folder gives its entry's data folder (glossary.figures names CSVs under it).
DATA = "data"


def refused_hint(names):
    """'; TeX may read only ...' for the names kpathsea refused ("" when none)."""
    names = sorted(set(names))
    if not names:
        return ""
    return (f"; it reads {', '.join(names)}, outside the dictionary's folder (TeX may read only that folder, "
            "by a path relative to it without ../, and TeX Live's own files): move the file into the folder "
            "and name it by its relative path")


@functools.cache
def texlive_trees():
    """The folders of TeX Live's own files (kpathsea's $TEXMF, each that exists), asked once a process."""
    run = subprocess.run(["kpsewhich", "--expand-path", "$TEXMF"], capture_output=True, text=True)
    return tuple(os.path.normpath(p) for p in run.stdout.strip().split(os.pathsep) if p)


def outside_reads(fls_text):
    """The files a run read (its -recorder list, `fls_text`) that are neither in its job folder (a
    relative name without ../) nor TeX Live's own (texlive_trees): kpathsea's paranoid mode lets a
    name through when it starts with ~ (~user/...), this check not."""
    trees = texlive_trees()
    found = set()
    for line in fls_text.splitlines():
        if not line.startswith("INPUT "):
            continue
        name = line[len("INPUT "):]
        path = os.path.normpath(name)
        if not os.path.isabs(name):
            if path != ".." and not path.startswith(".." + os.sep):
                continue
        elif any(path.startswith(tree + os.sep) for tree in trees):
            continue
        found.add(name)
    return sorted(found)


def mirror(folder, into, skip=()):
    """A dictionary's folder as its TeX runs see it, built under `into`: a link to each of its files,
    in its folders, but for hidden ones (.git, whose config may hold a CI token), links that lead out
    of it, and the folders `skip` (a build's own, when it lies inside).  Linked into a job folder
    (job_folder), it is all of the dictionary that TeX can open."""
    folder, into = Path(folder).resolve(), Path(into)
    skip = {Path(s).resolve() for s in skip}
    for top, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and (Path(top) / d).resolve() not in skip)
        below = into / Path(top).relative_to(folder)
        below.mkdir(parents=True, exist_ok=True)
        for name in files:
            real = (Path(top) / name).resolve()
            if not name.startswith(".") and real.is_file() and real.is_relative_to(folder):
                (below / name).symlink_to(real)


def job_folder(work, tex_path, links=None):
    """The folder a TeX run sees (its current folder), `work`: the .tex and each of `links`
    ({name: folder}) linked by name, and OUT, where TeX writes.  TeX is then given only relative
    names, which kpathsea's paranoid mode allows (mirror: what a dictionary's folder shows of itself)."""
    work = Path(work)
    (work / OUT).mkdir(exist_ok=True)
    tex_path = Path(tex_path).resolve()
    if tex_path.parent != work.resolve() and not (work / tex_path.name).exists():
        (work / tex_path.name).symlink_to(tex_path)
    for name, folder in (links or {}).items():
        if not (work / name).exists():
            (work / name).symlink_to(Path(folder).resolve(), target_is_directory=True)


def run_pdflatex(args, tex_path, log_path, work, jobname, inputs=(), links=None, search=()):
    """pdflatex in the job folder `work` (job_folder: the .tex and `links` linked there, TeX's
    output in work/OUT), sandboxed (SANDBOX, no shell escape, and no file read outside the job
    folder and TeX Live: outside_reads); `inputs`: folders searched for packages (\\usepackage) and
    files before TeX's own, each linked as tex-inputs-<n>; `search`: names under `work` (below a
    link) searched as well."""
    tex_path = Path(tex_path)
    if shutil.which("pdflatex") is None:
        raise LatexError(f"pdflatex is missing; install Debian's texlive-latex-base (and pgfplots, "
                         f"standalone with it): {INSTALL}")
    searched = {f"tex-inputs-{i}": folder for i, folder in enumerate(inputs)}
    job_folder(work, tex_path, {**(links or {}), **searched})
    # A format by a relative name, linked beside the .tex: -recorder names its list after the format
    # and fails on a path ("out//abs/..."); kpathsea finds formats in the current folder.
    for i, arg in enumerate(args):
        if arg.startswith("-fmt=") and Path(arg[5:]).is_absolute():
            fmt = Path(arg[5:] + ".fmt")
            if not (Path(work) / fmt.name).exists():
                (Path(work) / fmt.name).symlink_to(fmt)
            args = [*args[:i], f"-fmt={fmt.stem}", *args[i + 1:]]
    names = [*search, *searched]
    env = {k: v for k, v in os.environ.items() if k not in ("TEXMFOUTPUT", "openin_any", "openout_any")}
    # The trailing separator keeps TeX's own search path after these folders.
    # max_print_line: the log's lines unbroken, so that a warning naming a long name reads whole
    env.update(SANDBOX, SOURCE_DATE_EPOCH="0", FORCE_SOURCE_DATE="1", max_print_line="100000",
               TEXINPUTS=os.pathsep.join(names + [""]))
    run = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "-recorder",
         f"-output-directory={OUT}", *args],
        cwd=work, env=env, capture_output=True, text=True, errors="replace")
    log = Path(work) / OUT / f"{jobname}.log"
    log_text = log.read_text(errors="replace") if log.exists() else run.stdout
    Path(log_path).write_text(log_text)
    fls = Path(work) / OUT / f"{jobname}.fls"
    # without its list, what a run read is unknown: it fails as one that read outside
    escaped = (outside_reads(fls.read_text(errors="replace")) if fls.exists()
               else [f"(unknown: no {fls.name})"] if run.returncode == 0 else [])
    if run.returncode != 0 or escaped:
        # pgf asks for /dev/null, refused, as a file that is never there
        refused = [n for n in REFUSED.findall(run.stdout + run.stderr) if n != os.devnull] + escaped
        message = first_error(log_text, tex_path) if run.returncode != 0 else f"{tex_path}: TeX read a file"
        message += refused_hint(refused) or missing_file_hint(message)
        error = LatexError(message + f"\n  full log: {log_path}")
        error.refused, error.log_text = sorted(set(refused)), log_text
        raise error


# Where a preamble's part dumped into a format ends: mylatexformat makes pdflatex skip a document's lines up
# to it when the document starts from that format; without a format it is \relax.
END_OF_DUMP = r"\csname endofdump\endcsname"


def check_preamble(tex, tex_path, fmt, fmt_source):
    """Refuse a document (its LaTeX `tex`) whose preamble is not the one the format `fmt` was dumped
    from (`fmt_source`): pdflatex skips a document's lines up to END_OF_DUMP."""
    dumped = Path(fmt_source).read_text(encoding="utf-8")
    if tex.partition(END_OF_DUMP)[0] != dumped.partition(END_OF_DUMP)[0]:
        raise RuntimeError(f"{tex_path}: its preamble is not the one {fmt} was dumped from")


def compile_format(preamble_path, fmt_path, log_path, inputs=()):
    """A shared preamble (the figures': pgfplots and its libraries, most of a figure's compile
    time; the print edition's) loaded once and dumped as a format (mylatexformat) to start from;
    `inputs` as in run_pdflatex."""
    preamble_path, fmt_path = Path(preamble_path), Path(fmt_path)
    with tempfile.TemporaryDirectory() as work:
        run_pdflatex(["-ini", f"-jobname={fmt_path.stem}", "&pdflatex", "mylatexformat.ltx",
                      preamble_path.name], preamble_path, log_path, work, fmt_path.stem, inputs)
        shutil.copyfile(Path(work) / OUT / fmt_path.name, fmt_path)


# What LaTeX writes for its next pass (cross-references, contents, PDF outline), and the Index that
# makeindex sorts from its entries (index_pass).
AUXILIARY = (".aux", ".toc", ".out", ".lof", ".ind")


def index_pass(out, stem):
    """makeindex of a pass's index entries (the book's \\index: <stem>.idx, where \\makeindex asks for
    them) into <stem>.ind, which \\printindex sets in the next pass."""
    if (Path(out) / f"{stem}.idx").is_file():
        subprocess.run(["makeindex", "-q", f"{stem}.idx"], cwd=out, check=True, capture_output=True)


def auxiliary(out, stem):
    return {ext: (Path(out) / (stem + ext)).read_bytes()
            for ext in AUXILIARY if (Path(out) / (stem + ext)).is_file()}


def compile_pdf(tex_path, pdf_path, log_path, fmt=None, passes=1, inputs=(), links=None):
    """Compile tex_path into pdf_path, starting from the format `fmt` when given (compile_format).
    With passes > 1, pdflatex runs again (up to `passes` times in all) while its auxiliary
    files (contents, references, outline) still change; `inputs` and `links` as in run_pdflatex.
    (The book keeps its runs' auxiliary files between builds: glossary.bookrun.)"""
    tex_path = Path(tex_path)
    start = [f"-fmt={Path(fmt).resolve().with_suffix('')}"] if fmt else []
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / OUT
        out.mkdir()
        before = None
        for _ in range(passes):
            run_pdflatex([*start, tex_path.name], tex_path, log_path, work, tex_path.stem, inputs, links)
            index_pass(out, tex_path.stem)
            after = auxiliary(out, tex_path.stem)
            if after == before:
                break
            before = after
        shutil.copyfile(out / (tex_path.stem + ".pdf"), pdf_path)
