"""Rule book_tex: the book's LaTeX, every entry's section in the book's order."""
import sys
from pathlib import Path

from glossary import typeset

sys.stderr = open(snakemake.log[0], "w")
params = snakemake.params
texts = iter(Path(p).read_text(encoding="utf-8") for p in snakemake.input["sections"])
# the dictionary's sections in its own order, each with its entries' sections (input order)
parts = [{"title": part["title"], "entries": [next(texts) for _ in range(part["count"])]} for part in params["parts"]]
document = typeset.book_document(parts, params["site_title"], params["site_url"],
                                 Path(snakemake.input["template"]).parent, snakemake.output["tex"],
                                 params["site_terms"], demos=params["demos"], babel=params["babel"])
Path(snakemake.output["tex"]).write_text(document, encoding="utf-8")
