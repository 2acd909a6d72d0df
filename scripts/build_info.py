"""Rule build_info: the versions the site was built with and the numeric platform of its jobs."""
import platform
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from glossary import jsonio

sys.stderr = open(snakemake.log[0], "w")


def first_line(*cmd):
    run = subprocess.run(cmd, capture_output=True, text=True)
    return (run.stdout or run.stderr).strip().splitlines()[0]


pgfplots = Path(first_line("kpsewhich", "pgfplots.revision.tex")).read_text()
jsonio.write(snakemake.output["info"], {
    "python": platform.python_version(),
    "glibc": " ".join(platform.libc_ver()),
    "packages": {name: version(name) for name in
                 ("numpy", "matplotlib", "snakemake", "jinja2", "nbformat", "markdown-it-py",
                  "latex2mathml")},
    "tex": first_line("pdflatex", "--version"),
    "pgfplots": re.search(r"\\gdef\\pgfplotsrevision\{([^}]*)\}", pgfplots).group(1),
    "poppler": first_line("pdftocairo", "-v"),
    "numeric_env": dict(snakemake.config["numeric_env"]),
})
