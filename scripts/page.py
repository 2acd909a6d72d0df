"""Rule page_<batch>: the HTML pages of a batch of entries (glossary.pagejob), and their print sections
(glossary.typeset.print_sections), which their PDFs and the book set."""
import sys
from pathlib import Path

from glossary import jsonio, pagejob, typeset

sys.stderr = open(snakemake.log[0], "w")
pagejob.run_batch(snakemake)
inp = snakemake.input
checks = {}
for path in inp["checks"]:
    checks.setdefault(Path(path).parents[1].name, []).append(path)
typeset.print_sections([jsonio.read(p) for p in inp["entries"]], list(inp["prose_tex"]), jsonio.read(inp["print_view"]),
                       checks, list(snakemake.output["section"]), Path(inp["section_template"]).parent,
                       snakemake.params["words"], [jsonio.read(p) for p in inp["meta"]])
