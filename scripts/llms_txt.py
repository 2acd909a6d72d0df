"""Rule llms_txt: site/llms.txt, the site for language models: its title and summary, then one
line per term with its page and its Markdown source."""
import sys
from pathlib import Path

from glossary import catalog, jsonio, pages

sys.stderr = open(snakemake.log[0], "w")
metas = catalog.with_summaries(snakemake.params["metas"], jsonio.read(snakemake.input["catalog"]))
Path(snakemake.output["txt"]).write_text(pages.llms_txt(snakemake.params["site"], metas), encoding="utf-8")
