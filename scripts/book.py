"""Rule book_tex: the book's LaTeX: its front matter, every entry's section in the book's order, one
bibliography."""
import sys
from pathlib import Path

from glossary import jsonio, typeset

sys.stderr = open(snakemake.log[0], "w")
params, inp = snakemake.params, snakemake.input
sections = iter(inp["sections"])


def entry(path):
    """(slug, section) of results/<slug>/print/section.tex."""
    return Path(path).parents[1].name, Path(path).read_text(encoding="utf-8")


# the dictionary's sections in its own order, each with its entries' sections (input order)
parts = [{"title": part["title"], "entries": [entry(next(sections)) for _ in range(part["count"])]}
         for part in params["parts"]]
front = dict(params["front"])
if inp["symbols"]:
    macros = "".join(Path(p).read_text(encoding="utf-8") for p in inp["macros"])
    front["symbols"] = (Path(inp["symbols"][0]).read_text(encoding="utf-8"), macros,
                        jsonio.read(inp["names"])["targets"])
formatted = typeset.cited_records(list(inp["references"]), Path(inp["symbols"][0]) if inp["symbols"] else None,
                                  inp["bib"][0] if inp["bib"] else None, inp["csl"])
document = typeset.book_document(parts, params["site_title"], params["site_url"], Path(inp["template"]).parent,
                                 demos=params["demos"], babel=params["babel"], front=front, formatted=formatted,
                                 words_=params["words"])
Path(snakemake.output["tex"]).write_text(document, encoding="utf-8")
