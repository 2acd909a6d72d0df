"""Rule latex_format: the figures' shared preamble, compiled once into a pdflatex format."""
from pathlib import Path

from glossary import figures, latex

figures.render_preamble(Path(snakemake.input["preamble"]).parent, snakemake.output["tex"])
latex.compile_format(snakemake.output["tex"], snakemake.output["fmt"], snakemake.log["tex"])
