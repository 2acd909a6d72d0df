"""Rule page: an entry's HTML page from its prose, the run's facts and check lines,
its figures and the published demo's source."""
import sys
from pathlib import Path

from glossary import demo, entries, jsonio, pages

sys.stderr = open(snakemake.log[0], "w")
meta = snakemake.params["meta"]
slug = snakemake.wildcards["entry"]
others = snakemake.params["others"]
base = snakemake.params["base_url"]
_, body = entries.split_front_matter(Path(snakemake.input["entry"]).read_text(encoding="utf-8"),
                                     snakemake.input["entry"])
facts = {}
for path in snakemake.input["facts"]:
    facts.update(jsonio.read(path))
checks = "".join(Path(p).read_text(encoding="utf-8") for p in sorted(snakemake.input["checks"]))
script = Path(snakemake.input["script"]).read_text(encoding="utf-8")
head, blocks = demo.blocks(script)
svgs = snakemake.input["svgs"]
sizes = {Path(p).stem: pages.svg_size(p) for p in ([svgs] if isinstance(svgs, str) else svgs)}
page = f"terms/{slug}.html"
code_blocks, seen = [], set()
for name, text, source in blocks:
    anchor = name if name not in seen else f"{name}-{len(seen)}"   # ids stay unique
    seen.add(anchor)
    code_blocks.append({"name": name, "anchor": anchor, "text": text, "html": pages.code(source)})
previous, following = pages.neighbours(others, slug)
context = dict(
    site_title=snakemake.config["site_title"], page=page, entry=meta, slug=slug,
    prose=pages.prose(body, facts, snakemake.input["entry"]),
    checks=checks.rstrip("\n").split("\n"),
    csvs=sorted(p.name for p in Path(snakemake.input["data"]).glob("*.csv")),
    colab=snakemake.config["colab_prefix"] + f"{slug}.ipynb",
    others=others, previous=previous, following=following,
    figure_sizes=sizes, preview_size=pages.png_size(snakemake.input["preview"]),
    code_head=pages.code(head), code_lines=script.count("\n"),
    code_blocks=code_blocks,
    bibtex=pages.bibtex(slug, meta["title"], snakemake.config["site_title"],
                        f"{base}{page}" if base else None),
)
html = pages.environment(Path(snakemake.input["template"]).parent).get_template(
    Path(snakemake.input["template"]).name).render(**context)
Path(snakemake.output["html"]).write_text(html, encoding="utf-8")
