"""Rule llms_txt: site/llms.txt, the site for language models: its title and summary, then one
line per term with its page and its Markdown source."""
import sys
from pathlib import Path

from glossary import pages

sys.stderr = open(snakemake.log[0], "w")
Path(snakemake.output["txt"]).write_text(
    pages.llms_txt(snakemake.config["site_title"], snakemake.params["metas"]), encoding="utf-8")
