"""Rule sitemap: sitemap.xml of the index and every entry's page, sorted, with no dates."""
from pathlib import Path

from glossary import editions, jsonio, pages

Path(snakemake.output["xml"]).write_text(
    pages.sitemap(snakemake.params["pages"], snakemake.params["base_url"],
                  editions.Pages(jsonio.read(snakemake.input["edition"]))), encoding="utf-8")
