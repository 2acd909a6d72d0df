"""Rule book: the book's LaTeX (its front matter, every entry's section in the book's order, one
bibliography), in pieces when it is large (glossary.typeset.book_pieces), compiled into its PDF with the
entries' notation package and the figure PDFs already built (glossary.bookrun); then its links checked
(glossary.links), so that the site's check need not wait for the book."""
import sys
from pathlib import Path

from glossary import batchfiles, bookrun, jsonio, links, typeset

sys.stderr = open(snakemake.log["job"], "w")
params, inp, out = snakemake.params, snakemake.input, snakemake.output
sections = batchfiles.read(inp["sections"])
order = iter(params["order"])
# the dictionary's sections in its own order, each with its entries' sections (the book's order)
parts = []
for part in params["parts"]:
    slugs = [next(order) for _ in range(part["count"])]
    parts.append({"title": part["title"], "entries": [(slug, sections[slug]) for slug in slugs],
                  "initials": part["initials"]})
front = dict(params["front"])
if inp["symbols"]:
    macros = "".join(Path(p).read_text(encoding="utf-8") for p in inp["macros"])
    front["symbols"] = (Path(inp["symbols"][0]).read_text(encoding="utf-8"), macros,
                        jsonio.read(inp["names"])["targets"])
# every record the book cites, the List of Symbols' too (glossary.plan.Plan.cited), formatted once
formatted = jsonio.read(inp["references"][0]) if inp["references"] else {}
pieces = typeset.book_pieces(parts, params["site_title"], params["site_url"], Path(inp["template"]).parent,
                             demos=params["demos"], babel=params["babel"], front=front, formatted=formatted,
                             words_=params["words"], captions=params["captions"], limit=params["piece"])
pdf = Path(out["pdf"])
# its named destinations as they are written, not read from its file again
ran, names = bookrun.compile_book(pieces, out["tex"], pdf, snakemake.log["tex"], params["settled"], fmt=inp["fmt"],
                                  fmt_source=inp["fmt_tex"], inputs=[Path(inp["notation"]).parent],
                                  links={typeset.TERMS: params["site_terms"]}, jobs=params["jobs"])
# its links: each piece's, read as the piece was made
found = links.joined_links(bookrun.piece_links(pieces, params["settled"]), names)
# which pieces ran, how often (the tests read it: an edit reruns its own piece)
print(f"{len(pieces)} piece(s); ran: " + (", ".join(f"{n} x{k}" for n, k in ran.items()) or "none"), file=sys.stderr)
check = params["links"]
# a dead link names the entry whose section holds it (the first in the book's order)
holders = {slug: sections[slug] for slug in params["order"]}
result = links.check(pdf.parent, check["site_url"], check["entries"], files=jsonio.read(inp["listing"]),
                     prefix=check["prefix"], outside=check["outside"], only=[pdf.name], holders=holders,
                     given={pdf.name: found})
if result.dead:
    print("\n".join(result.told("the book")), file=sys.stderr)
    sys.exit(1)
# the report of rule links leaves the book out: its own, with the addresses that leave the site
print(result.report(), end="", file=sys.stderr)
