"""Rule print_<batch>: each entry's own PDF, from its print section (glossary.typeset.print_batch)."""
from pathlib import Path

from glossary import batchfiles, jsonio, typeset

inp = snakemake.input
typeset.print_batch(batchfiles.read_entries(inp["entries"]), batchfiles.read(inp["sections"]),
                    jsonio.read(inp["catalog"]), list(snakemake.output["pdf"]), snakemake.params,
                    Path(inp["document"]).parent, [Path(inp["notation"]).parent], snakemake.params["cache"],
                    snakemake.log[0], fmt=inp["fmt"])
