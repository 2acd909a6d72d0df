"""Rule print_<batch>: each entry's own PDF, from its print section (glossary.typeset.print_batch)."""
from pathlib import Path

from glossary import batchfiles, jsonio, layout, typeset

inp, folder = snakemake.input, snakemake.output["pdf"]
# the figures and pictures the entries include (the rule's inputs), where the staged site has them
params = dict(snakemake.params.items(), site_terms=layout.STAGED_TERMS)
entries = batchfiles.read_entries(inp["entries"])
Path(folder).mkdir(parents=True, exist_ok=True)
typeset.print_batch(entries, batchfiles.read(inp["sections"]), jsonio.read(inp["names"]),
                    [batchfiles.site_file("pdf", folder, e["slug"]) for e in entries], params,
                    Path(inp["document"]).parent, [Path(inp["notation"]).parent], snakemake.params["cache"],
                    snakemake.log[0], fmt=inp["fmt"])
