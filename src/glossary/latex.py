"""pdflatex, run so that its PDF is byte-stable and its errors are told in a few lines."""
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


def run_pdflatex(args, tex_path, log_path, work, jobname, inputs=()):
    """pdflatex in tex_path's folder (so relative CSV paths work), its output and log in work;
    `inputs`: folders searched for packages (\\usepackage) before TeX's own."""
    tex_path = Path(tex_path)
    if shutil.which("pdflatex") is None:
        raise LatexError(f"pdflatex is missing; install Debian's texlive-latex-base (and pgfplots, "
                         f"standalone with it): {INSTALL}")
    env = dict(os.environ, SOURCE_DATE_EPOCH="0", FORCE_SOURCE_DATE="1")
    if inputs:
        # The trailing separator keeps TeX's own search path after these folders.
        env["TEXINPUTS"] = os.pathsep.join([str(Path(p).resolve()) for p in inputs] + [""])
    run = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
         f"-output-directory={work}", *args],
        cwd=tex_path.parent, env=env, capture_output=True, text=True, errors="replace")
    log = Path(work) / f"{jobname}.log"
    log_text = log.read_text(errors="replace") if log.exists() else run.stdout
    Path(log_path).write_text(log_text)
    if run.returncode != 0:
        message = first_error(log_text, tex_path)
        message += missing_file_hint(message)
        raise LatexError(message + f"\n  full log: {log_path}")


def compile_format(preamble_path, fmt_path, log_path, inputs=()):
    """A shared preamble (the figures': pgfplots and its libraries, most of a figure's compile
    time; the print edition's) loaded once and dumped as a format (mylatexformat) to start from;
    `inputs` as in run_pdflatex."""
    preamble_path, fmt_path = Path(preamble_path), Path(fmt_path)
    with tempfile.TemporaryDirectory() as work:
        run_pdflatex(["-ini", f"-jobname={fmt_path.stem}", "&pdflatex", "mylatexformat.ltx",
                      preamble_path.name], preamble_path, log_path, work, fmt_path.stem, inputs)
        shutil.copyfile(Path(work) / fmt_path.name, fmt_path)


# What LaTeX writes for its next pass (cross-references, contents, PDF outline).
AUXILIARY = (".aux", ".toc", ".out", ".lof")


def auxiliary(work, stem):
    return {ext: (Path(work) / (stem + ext)).read_bytes()
            for ext in AUXILIARY if (Path(work) / (stem + ext)).is_file()}


def compile_pdf(tex_path, pdf_path, log_path, fmt=None, passes=1, inputs=(), settled=None):
    """Compile tex_path into pdf_path, starting from the format `fmt` when given (compile_format).
    With passes > 1, pdflatex runs again (up to `passes` times in all) while its auxiliary
    files (contents, references, outline) still change; `inputs` as in run_pdflatex.  `settled`
    (a folder) keeps the auxiliary files a compile settled on and starts the next one from them:
    an edit that moves no page number or label then compiles once, into the PDF that a compile
    from nothing settles on (the same auxiliary files are read for it)."""
    tex_path = Path(tex_path)
    start = [f"-fmt={Path(fmt).resolve().with_suffix('')}"] if fmt else []
    with tempfile.TemporaryDirectory() as work:
        before = None
        if settled and Path(settled).is_dir():
            for path in sorted(Path(settled).iterdir()):
                shutil.copyfile(path, Path(work) / path.name)
            before = auxiliary(work, tex_path.stem) or None
        for _ in range(passes):
            run_pdflatex([*start, tex_path.name], tex_path, log_path, work, tex_path.stem, inputs)
            after = auxiliary(work, tex_path.stem)
            if after == before:
                break
            before = after
        shutil.copyfile(Path(work) / (tex_path.stem + ".pdf"), pdf_path)
        if settled:
            shutil.rmtree(settled, ignore_errors=True)
            Path(settled).mkdir(parents=True)
            for ext, data in auxiliary(work, tex_path.stem).items():
                (Path(settled) / (tex_path.stem + ext)).write_bytes(data)
