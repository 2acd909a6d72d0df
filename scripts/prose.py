"""Rule prose_<batch>: the prose of a batch of entries (glossary.render), each as HTML (the page's) and
LaTeX (the print edition's) with what the index and the other pages need of it (its summary, the
entries it links to), in the batch's one file (glossary.batchfiles); and as Markdown, published for
machines."""
import hashlib
from pathlib import Path

from glossary import batchfiles, jsonio, prose, render

inp, out = snakemake.input, snakemake.output
names = jsonio.read(inp["names"])
entries = batchfiles.read_entries(inp["entries"])
facts = {}
for path in inp["facts"]:
    facts.setdefault(Path(path).parents[1].name, {}).update(jsonio.read(path))
context = {
    "markdown_macros": prose.macro_lines(Path(inp["notation"]).read_text(encoding="utf-8")),
    "latex_macros": "".join(Path(p).read_text(encoding="utf-8") for p in inp["macros"]),
    "targets": names["targets"],
    "titles": names["titles"],
    "labels": names["labels"],
    "words": names.get("words", {}),
    "references": jsonio.read(inp["references"][0]) if inp["references"] else {},
}
# the code the outputs depend on besides the entries: a change of it converts every entry again
context["code"] = hashlib.sha256(Path(inp["lib"]).read_bytes()).hexdigest()
results = render.render_batch(entries, facts, context, cache=snakemake.params["cache"])
batch = {}
Path(out["markdown"]).mkdir(parents=True, exist_ok=True)
for entry in entries:
    done = results[entry["slug"]]
    batchfiles.site_file("markdown", out["markdown"], entry["slug"]).write_text(
        prose.markdown_page(entry["title"], done["summary"], done["markdown"]), encoding="utf-8")
    batch[entry["slug"]] = {
        "html": done["html"], "latex": done["latex"],
        "meta": {"slug": entry["slug"], "summary": done["summary"], "summary_html": done["summary_html"],
                 "summary_latex": done.get("summary_latex"), "refs": done["refs"],
                 "contexts": done.get("contexts", {}), "unknown": done["unknown"]}}
batchfiles.write(out["prose"], batch)
