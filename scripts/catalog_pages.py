"""Rule catalog_pages: what is made of the catalog alone, in one job (each file alone cost its job's start
more than its work): the index, a page for each section, the abbreviations page, terms.json (every entry
for machines, URLs relative to the site's root), llms.txt (the site for language models) and previews.js
(what a cross-reference's preview shows of each entry)."""
from pathlib import Path

from glossary import catalog as glossary_catalog
from glossary import jsonio, notation, pages, reading

inp, out, params = snakemake.input, snakemake.output, snakemake.params
catalog = jsonio.read(inp["catalog"])
forms = jsonio.read(inp["forms"])     # the forms as text (rule forms_text)
env = pages.environment(Path(inp["base"]).parent)
edition = pages.edition_context(inp["edition"])
site = dict(site_title=params["site_title"], site=params["site"])


def write_page(template, path, **context):
    Path(path).write_text(env.get_template(Path(template).name).render(**site, **context, **edition),
                          encoding="utf-8")


sections = reading.sections(catalog)
write_page(inp["index"], out["index"], page="index.html", others=catalog["entries"], sections=sections)
by_id = {s["id"]: s for s in sections}
for path in out["sections"]:
    section = by_id[Path(path).stem]
    write_page(inp["section"], path, page=reading.section_page(section["id"]), section=section, sections=sections)
for path in out["abbreviations"]:     # none where no term has a short form
    write_page(inp["abbreviations"], path, page=notation.ABBREVIATIONS_PAGE,
               rows=notation.abbreviations(catalog, forms))

metas = glossary_catalog.with_summaries(jsonio.read(inp["metas"]), catalog)
jsonio.write(out["terms_json"], pages.terms_json(
    params["site"], {slug: dict(m, forms=forms[slug]) if "forms" in m else m for slug, m in metas.items()},
    params["base_url"], params["site_url"]))
Path(out["llms_txt"]).write_text(pages.llms_txt(params["site"], metas), encoding="utf-8")
Path(out["previews"]).write_text(reading.previews_script(catalog), encoding="utf-8")
