"""Rule page: an entry's HTML page from its prose, the run's facts and check lines."""
import sys
from pathlib import Path

from glossary import entries, jsonio, pages

sys.stderr = open(snakemake.log[0], "w")
meta = snakemake.params["meta"]
slug = snakemake.wildcards["entry"]
_, body = entries.split_front_matter(Path(snakemake.input["entry"]).read_text(encoding="utf-8"),
                                     snakemake.input["entry"])
facts = {}
for path in snakemake.input["facts"]:
    facts.update(jsonio.read(path))
checks = "".join(Path(p).read_text(encoding="utf-8") for p in sorted(snakemake.input["checks"]))
page = f"terms/{slug}.html"
context = dict(
    site_title=snakemake.config["site_title"], page=page, entry=meta, slug=slug,
    prose=pages.prose(body, facts, snakemake.input["entry"]),
    checks=checks.rstrip("\n").split("\n"),
    csvs=sorted(p.name for p in Path(snakemake.input["data"]).glob("*.csv")),
    colab=snakemake.config["colab_prefix"] + f"{slug}.ipynb",
    others=snakemake.params["others"],
)
html = pages.environment(Path(snakemake.input["template"]).parent).get_template(
    Path(snakemake.input["template"]).name).render(**context)
Path(snakemake.output["html"]).write_text(html, encoding="utf-8")
