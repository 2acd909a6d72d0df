"""Rule section_<batch>: the print sections of a batch of entries (glossary.typeset.print_sections),
which their PDFs (rule print_<batch>) and the book set."""
from pathlib import Path

from glossary import batchfiles, jsonio, typeset

inp = snakemake.input
checks = {}
for path in inp["checks"]:
    checks.setdefault(Path(path).parents[1].name, []).append(path)
prose = batchfiles.read(inp["prose"])
entries = batchfiles.read_entries(inp["entries"])
sections = typeset.print_sections(entries, [prose[e["slug"]]["latex"] for e in entries], jsonio.read(inp["names"]),
                                  checks, Path(inp["template"]).parent, snakemake.params["words"])
batchfiles.write(snakemake.output["sections"], sections)
