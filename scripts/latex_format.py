"""Rule latex_format: the figures' shared preamble, compiled once into a pdflatex format."""
import sys
from pathlib import Path

from glossary import figures, latex

sys.stderr = open(snakemake.log["job"], "w")
figures.render_preamble(Path(snakemake.input["preamble"]).parent, snakemake.output["tex"])
latex.compile_format(snakemake.output["tex"], snakemake.output["fmt"], snakemake.log["tex"])
