"""Rule figure_tex: the pgfplots source of one figure, from its spec in entry.md."""
import sys
from pathlib import Path

from glossary import figures, jsonio

sys.stderr = open(snakemake.log[0], "w")
spec = snakemake.params["spec"]
entry = snakemake.params["entry_file"]
facts = jsonio.read(snakemake.input["facts"])
if spec["kind"] == "custom":    # the entry's own template, beside its entry.md
    figures.render_custom(spec, snakemake.input["data"], snakemake.output["tex"], facts, snakemake.input["template"],
                          Path(snakemake.input["preamble"]).parent, entry, snakemake.params["index"])
else:
    figures.render(spec, Path(snakemake.input["data"]) / spec["csv"], snakemake.output["tex"], facts,
                   Path(snakemake.input["template"]).parent, entry, snakemake.params["index"])
