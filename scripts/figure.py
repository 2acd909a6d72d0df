"""Rule figure: one figure's pgfplots source from its spec in entry.md, compiled from the figures'
format into the published PDF, and that PDF as the page's SVG and PNG."""
from pathlib import Path

from glossary import figures, jsonio, latex

spec = snakemake.params["spec"]
entry = snakemake.params["entry_file"]
facts = jsonio.read(snakemake.input["facts"])
tex = snakemake.log["source"]
if spec["kind"] == "custom":    # the entry's own template, beside its entry.md
    figures.render_custom(spec, snakemake.input["data"], tex, facts, snakemake.input["template"],
                          Path(snakemake.input["preamble"]).parent, entry, snakemake.params["index"])
else:
    figures.render(spec, Path(snakemake.input["data"]) / spec["csv"], tex, facts,
                   Path(snakemake.input["template"]).parent, entry, snakemake.params["index"])
# the figure reads its CSVs under the data link (glossary.figures), its entry's data folder
latex.compile_pdf(tex, snakemake.output["pdf"], snakemake.log["tex"], fmt=snakemake.input["fmt"],
                  links={latex.DATA: snakemake.input["data"]})
figures.views(snakemake.output["pdf"], snakemake.output["svg"], snakemake.output["png"])
