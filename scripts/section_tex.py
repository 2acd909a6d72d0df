"""Rule section_tex: an entry's section of the print edition (prose, figures, checks,
citation, links) and the entry PDF's document around it."""
import sys
from pathlib import Path

from glossary import typeset

sys.stderr = open(snakemake.log[0], "w")
slug, params = snakemake.wildcards["entry"], snakemake.params
templates = Path(snakemake.input["template"]).parent
section = typeset.section(slug, params["meta"], Path(snakemake.input["prose"]).read_text(encoding="utf-8"),
                          typeset.check_lines(snakemake.input["checks"]), params["site_title"],
                          params["site_url"], templates)
Path(snakemake.output["section"]).write_text(section, encoding="utf-8")
document = typeset.entry_document(section, params["meta"], params["site_title"], params["site_url"], templates,
                                  snakemake.output["document"], params["site_terms"])
Path(snakemake.output["document"]).write_text(document, encoding="utf-8")
