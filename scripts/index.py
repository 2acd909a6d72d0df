"""Rule index: the list of terms, alphabetical, each with its one-line summary."""
import sys
from pathlib import Path

from glossary import jsonio, pages, reading

sys.stderr = open(snakemake.log[0], "w")
catalog = jsonio.read(snakemake.input["catalog"])
html = pages.environment(Path(snakemake.input["template"]).parent).get_template(
    Path(snakemake.input["template"]).name).render(
    site_title=snakemake.params["site_title"], page="index.html", others=catalog["entries"],
    sections=reading.sections(catalog), site=snakemake.params["site"],
    **pages.edition_context(snakemake.input["edition"]))
Path(snakemake.output["html"]).write_text(html, encoding="utf-8")
