"""Rules entry_pdf and book: compile a print document (an entry's, or the book) into its PDF,
finding the entries' notation package and the figure PDFs already built."""
import sys
from pathlib import Path

from glossary import typeset

sys.stderr = open(snakemake.log["job"], "w")
typeset.compile_document(snakemake.input["tex"], snakemake.output["pdf"], snakemake.log["tex"],
                         [Path(snakemake.input["notation"]).parent], snakemake.params["passes"],
                         snakemake.params["site_terms"], settled=getattr(snakemake.params, "settled", None))
