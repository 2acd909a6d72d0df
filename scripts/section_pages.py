"""Rule section_pages: a page for each section of the dictionary, its terms A to Z."""
import sys
from pathlib import Path

from glossary import jsonio, pages, reading

sys.stderr = open(snakemake.log[0], "w")
catalog = jsonio.read(snakemake.input["catalog"])
template = Path(snakemake.input["template"])
env = pages.environment(template.parent)
by_id = {s["id"]: s for s in reading.sections(catalog)}
for out in snakemake.output["html"]:
    section = by_id[Path(out).stem]
    html = env.get_template(template.name).render(
        site_title=snakemake.params["site_title"], page=reading.section_page(section["id"]),
        section=section, sections=reading.sections(catalog), site=snakemake.params["site"],
        **pages.edition_context(snakemake.input["edition"]))
    Path(out).write_text(html, encoding="utf-8")
