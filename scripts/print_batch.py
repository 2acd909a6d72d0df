"""Rule print_<batch>: the print sections of a batch of entries and each entry's own PDF
(glossary.typeset.print_batch)."""
import sys
from pathlib import Path

from glossary import jsonio, typeset

sys.stderr = open(snakemake.log[0], "w")
inp = snakemake.input
entries = [jsonio.read(p) for p in inp["entries"]]
checks = {}
for path in inp["checks"]:
    checks.setdefault(Path(path).parents[1].name, []).append(path)
metas = [jsonio.read(p) for p in inp["meta"]]
typeset.print_batch(entries, list(inp["prose"]), jsonio.read(inp["catalog"]), checks, list(snakemake.output["section"]),
                    list(snakemake.output["pdf"]), snakemake.params, Path(inp["template"]).parent,
                    [Path(inp["notation"]).parent], snakemake.params["cache"], snakemake.log[0], fmt=inp["fmt"],
                    metas=metas)
