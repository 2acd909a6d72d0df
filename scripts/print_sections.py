"""Rule section_<batch>: the print sections of a batch of entries (glossary.typeset.print_sections),
which their PDFs (rule print_<batch>) and the book set."""
import sys
from pathlib import Path

from glossary import jsonio, typeset

sys.stderr = open(snakemake.log[0], "w")
inp = snakemake.input
checks = {}
for path in inp["checks"]:
    checks.setdefault(Path(path).parents[1].name, []).append(path)
typeset.print_sections([jsonio.read(p) for p in inp["entries"]], list(inp["prose"]), jsonio.read(inp["catalog"]),
                       checks, list(snakemake.output["section"]), Path(inp["template"]).parent,
                       snakemake.params["words"], [jsonio.read(p) for p in inp["meta"]])
