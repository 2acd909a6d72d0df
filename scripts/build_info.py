"""Rule build_info: the versions the site was built with and the numeric platform of its jobs."""
import platform
from importlib.metadata import version

from glossary import jsonio, latex

jsonio.write(snakemake.output["info"], {
    "python": platform.python_version(),
    "glibc": " ".join(platform.libc_ver()),
    "packages": {name: version(name) for name in
                 ("numpy", "matplotlib", "snakemake", "jinja2", "nbformat", "pypandoc-binary",
                  "Pygments")},
    "tex": snakemake.params["tex"].get("tex"),
    "pgfplots": snakemake.params["tex"].get("pgfplots"),
    "poppler": latex.first_line("pdftocairo", "-v"),
    "numeric_env": dict(snakemake.config["numeric_env"]),
})
