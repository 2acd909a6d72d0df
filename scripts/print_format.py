"""Rule print_format: the preamble every entry PDF shares, compiled once into a pdflatex format
(an entry PDF then costs its own pages, not the packages' loading)."""
from pathlib import Path

from glossary import latex, typeset

typeset.format_source(Path(snakemake.input["preamble"]).parent, snakemake.output["tex"], snakemake.params["babel"],
                      snakemake.params["captions"])
latex.compile_format(snakemake.output["tex"], snakemake.output["fmt"], snakemake.log["tex"],
                     inputs=[Path(snakemake.input["notation"]).parent])
