"""Rule prose: an entry's prose, its facts filled in, parsed once by pandoc (glossary.prose) and
written as HTML (the page's), LaTeX (the print edition's) and Markdown (published for machines)."""
import sys
from pathlib import Path

from glossary import prose

sys.stderr = open(snakemake.log[0], "w")
inp, out = snakemake.input, snakemake.output
result = prose.render_file(inp["entry"], list(inp["facts"]), inp["notation"], snakemake.params["titles"])
Path(out["html"]).write_text(result["html"], encoding="utf-8")
Path(out["latex"]).write_text(result["latex"], encoding="utf-8")
Path(out["markdown"]).write_text(prose.markdown_page(snakemake.params["title"], snakemake.params["summary"],
                                                     result["markdown"]), encoding="utf-8")
