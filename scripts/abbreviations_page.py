"""Rule abbreviations_page: abbreviations.html, every term with a short form, A to Z by it, each
linking to its term (glossary.notation)."""
import sys
from pathlib import Path

from glossary import jsonio, notation, pages

sys.stderr = open(snakemake.log[0], "w")
inp, params = snakemake.input, snakemake.params
rows = notation.abbreviations(jsonio.read(inp["catalog"]), jsonio.read(inp["forms"]))
template = Path(inp["template"])
html = pages.environment(template.parent).get_template(template.name).render(
    site_title=params["site_title"], page=notation.ABBREVIATIONS_PAGE, rows=rows, site=params["site"],
    **pages.edition_context(inp["edition"]))
Path(snakemake.output["html"]).write_text(html, encoding="utf-8")
