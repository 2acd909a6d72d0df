"""Rule terms_json: every entry for machines (key, name, abstract, see_also, URLs of its page,
demo, notebook, figures, PDF and Markdown, its BibTeX), sorted by key, URLs relative to the
site's root."""
import sys

from glossary import jsonio, pages

sys.stderr = open(snakemake.log[0], "w")
jsonio.write(snakemake.output["json"], pages.terms_json(
    snakemake.config["site_title"], snakemake.params["metas"], snakemake.params["base_url"],
    snakemake.params["site_url"]))
