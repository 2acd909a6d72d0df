"""pdflatex, run so that its PDF is byte-stable and its errors are told in a few lines."""
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path


# The Debian package of each TeX file the figures load.
PACKAGES = {"pgfplots.sty": "texlive-pictures", "tikz.sty": "texlive-pictures", "pgf.sty": "texlive-pictures",
            "standalone.cls": "texlive-latex-extra"}
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


def compile_pdf(tex_path, pdf_path, log_path):
    """Compile tex_path (read from its own folder, so relative CSV paths work) into pdf_path."""
    tex_path = Path(tex_path)
    if shutil.which("pdflatex") is None:
        raise LatexError(f"pdflatex is missing; install Debian's texlive-latex-base (and pgfplots, "
                         f"standalone with it): {INSTALL}")
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, SOURCE_DATE_EPOCH="0", FORCE_SOURCE_DATE="1")
        run = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
             f"-output-directory={work}", tex_path.name],
            cwd=tex_path.parent, env=env, capture_output=True, text=True, errors="replace")
        log = Path(work) / (tex_path.stem + ".log")
        log_text = log.read_text(errors="replace") if log.exists() else run.stdout
        Path(log_path).write_text(log_text)
        if run.returncode != 0:
            message = first_error(log_text, tex_path)
            message += missing_file_hint(message)
            raise LatexError(message + f"\n  full log: {log_path}")
        shutil.copyfile(Path(work) / (tex_path.stem + ".pdf"), pdf_path)
