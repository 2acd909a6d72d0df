"""Rule book: the book's LaTeX (its front matter, every entry's section in the book's order, one
bibliography), compiled into its PDF with the entries' notation package and the figure PDFs already
built; then its links checked (glossary.links), so that the site's check need not wait for the book."""
import sys
from pathlib import Path

from glossary import batchfiles, jsonio, links, typeset

sys.stderr = open(snakemake.log["job"], "w")
params, inp, out = snakemake.params, snakemake.input, snakemake.output
sections = batchfiles.read(inp["sections"])
order = iter(params["order"])
# the dictionary's sections in its own order, each with its entries' sections (the book's order)
parts = []
for part in params["parts"]:
    slugs = [next(order) for _ in range(part["count"])]
    parts.append({"title": part["title"], "entries": [(slug, sections[slug]) for slug in slugs]})
front = dict(params["front"])
if inp["symbols"]:
    macros = "".join(Path(p).read_text(encoding="utf-8") for p in inp["macros"])
    front["symbols"] = (Path(inp["symbols"][0]).read_text(encoding="utf-8"), macros,
                        jsonio.read(inp["names"])["targets"])
# every record the book cites, the List of Symbols' too (glossary.plan.Plan.cited), formatted once
formatted = jsonio.read(inp["references"][0]) if inp["references"] else {}
document = typeset.book_document(parts, params["site_title"], params["site_url"], Path(inp["template"]).parent,
                                 demos=params["demos"], babel=params["babel"], front=front, formatted=formatted,
                                 words_=params["words"], captions=params["captions"])
Path(out["tex"]).write_text(document, encoding="utf-8")

pdf = Path(out["pdf"])
typeset.compile_document(out["tex"], pdf, snakemake.log["tex"], [Path(inp["notation"]).parent], params["passes"],
                         params["site_terms"], settled=params["settled"], fmt=inp["fmt"],
                         fmt_source=inp["fmt_tex"])
check = params["links"]
# a dead link names the entry whose section holds it (the first in the book's order)
holders = {slug: sections[slug] for slug in params["order"]}
result = links.check(pdf.parent, check["site_url"], check["entries"], files=check["files"], prefix=check["prefix"],
                     outside=check["outside"], only=[pdf.name], holders=holders)
if result.dead:
    print("\n".join(result.told("the book")), file=sys.stderr)
    sys.exit(1)
# the report of rule links leaves the book out: its own, with the addresses that leave the site
print(result.report(), end="", file=sys.stderr)
