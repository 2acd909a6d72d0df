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


def first_error(log_text, tex_path):
    """`file:line: message` for the first TeX error in a log, with the offending line."""
    lines = log_text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("! "):
            message = line[2:].strip()
            rest = lines[i + 1:i + 12]
            where = next((re.match(r"l\.(\d+) ?(.*)", l) for l in rest if re.match(r"l\.\d+", l)), None)
            if where:
                return f"{tex_path}:{where.group(1)}: {message} (at: {where.group(2).strip()[:60]})"
            return f"{tex_path}: {message}"
    return f"{tex_path}: pdflatex failed; see its log"


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


def run_pdflatex(args, tex_path, log_path, work, jobname):
    """pdflatex in tex_path's folder (so relative CSV paths work), its output and log in work."""
    tex_path = Path(tex_path)
    if shutil.which("pdflatex") is None:
        raise LatexError(f"pdflatex is missing; install Debian's texlive-latex-base (and pgfplots, "
                         f"standalone with it): {INSTALL}")
    env = dict(os.environ, SOURCE_DATE_EPOCH="0", FORCE_SOURCE_DATE="1")
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


def compile_format(preamble_path, fmt_path, log_path):
    """The figures' shared preamble (pgfplots and its libraries: most of a figure's
    compile time) loaded once and dumped as a format (mylatexformat) to start from."""
    preamble_path, fmt_path = Path(preamble_path), Path(fmt_path)
    with tempfile.TemporaryDirectory() as work:
        run_pdflatex(["-ini", f"-jobname={fmt_path.stem}", "&pdflatex", "mylatexformat.ltx",
                      preamble_path.name], preamble_path, log_path, work, fmt_path.stem)
        shutil.copyfile(Path(work) / fmt_path.name, fmt_path)


def compile_pdf(tex_path, pdf_path, log_path, fmt=None):
    """Compile tex_path into pdf_path, starting from the format `fmt` when given (compile_format)."""
    tex_path = Path(tex_path)
    start = [f"-fmt={Path(fmt).resolve().with_suffix('')}"] if fmt else []
    with tempfile.TemporaryDirectory() as work:
        run_pdflatex([*start, tex_path.name], tex_path, log_path, work, tex_path.stem)
        shutil.copyfile(Path(work) / (tex_path.stem + ".pdf"), pdf_path)
