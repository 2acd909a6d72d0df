"""Rule book: compile the book into its PDF, finding the entries' notation package and the figure
PDFs already built, and check the book's links (glossary.links), so that the site's check need not
wait for the book."""
import sys
from pathlib import Path

from glossary import links, typeset

sys.stderr = open(snakemake.log["job"], "w")
pdf = Path(snakemake.output["pdf"])
typeset.compile_document(snakemake.input["tex"], pdf, snakemake.log["tex"],
                         [Path(snakemake.input["notation"]).parent], snakemake.params["passes"],
                         snakemake.params["site_terms"], settled=snakemake.params["settled"])
check = snakemake.params["links"]
result = links.check(pdf.parent, check["site_url"], check["entries"], files=check["files"], prefix=check["prefix"],
                     outside=check["outside"], only=[pdf.name])
if result.dead:
    print("\n".join(result.told("the book")), file=sys.stderr)
    sys.exit(1)
print(result.report().splitlines()[0], file=sys.stderr)
