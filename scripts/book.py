"""Rule book_tex: the book's LaTeX, every entry's section in the book's order."""
import sys
from pathlib import Path

from glossary import typeset

sys.stderr = open(snakemake.log[0], "w")
params = snakemake.params
sections = [Path(p).read_text(encoding="utf-8") for p in snakemake.input["sections"]]
document = typeset.book_document(sections, params["site_title"], params["site_url"],
                                 Path(snakemake.input["template"]).parent, snakemake.output["tex"],
                                 params["site_terms"])
Path(snakemake.output["tex"]).write_text(document, encoding="utf-8")
