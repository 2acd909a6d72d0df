"""Rule figure_tex: the pgfplots source of one figure, from its spec in entry.md."""
import sys
from pathlib import Path

from glossary import figures, jsonio

sys.stderr = open(snakemake.log[0], "w")
spec = snakemake.params["spec"]
entry = snakemake.params["entry_file"]
figures.render(spec, Path(snakemake.input["data"]) / spec["csv"], snakemake.output["tex"],
               jsonio.read(snakemake.input["facts"]), Path(snakemake.input["template"]).parent,
               entry, snakemake.params["index"])
