"""Rule terms_json: every entry for machines (key, name, abstract, see_also, URLs of its page,
demo, notebook, figures, PDF and Markdown, its BibTeX), sorted by key, URLs relative to the
site's root."""
import sys

from glossary import catalog, jsonio, pages

sys.stderr = open(snakemake.log[0], "w")
metas = catalog.with_summaries(snakemake.params["metas"], jsonio.read(snakemake.input["catalog"]))
forms = jsonio.read(snakemake.input["forms"])     # the forms as text (rule forms_text)
metas = {slug: dict(m, forms=forms[slug]) if "forms" in m else m for slug, m in metas.items()}
jsonio.write(snakemake.output["json"], pages.terms_json(
    snakemake.params["site"], metas, snakemake.params["base_url"], snakemake.params["site_url"]))
