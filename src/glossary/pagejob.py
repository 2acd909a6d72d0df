"""The page job: an entry's HTML page from its prose, the run's facts and check
lines, its figures and the published demo's source.

Rule page runs it (scripts/page.py) on the inputs Snakemake hands it; the preview
server (glossary.preview) runs the same render on the last build's results and the
entry.md as it is being edited, into its own folder.
"""
import hashlib
import json
import re
import shutil
import sys
from pathlib import Path

from markupsafe import escape

from glossary import assets, batchfiles, catalog, demo, entries, jsonio, layout, pages, prose, reading
from glossary.render import render_batch

# A figure's number in the prose's HTML (glossary.render numbers them; a subfigure's "(a)" is not one):
# the demo's figures are numbered after them, as the print edition numbers them.
PROSE_FIGURE = re.compile(r'<span class="figure-label"><strong>[^<(]')


def as_list(value):
    """A rule's input that may be one path or several."""
    return [value] if isinstance(value, str) else list(value)


def plain(value):
    return str(value) if isinstance(value, str) else [str(v) for v in value]


def render(job, prose_html):
    """The page's HTML, with its prose as HTML (rule prose's, or the preview's)."""
    inp, params, config, slug = job["input"], job["params"], job["config"], job["slug"]
    meta, others, base = params["meta"], params["others"], params["base_url"]
    # The preview's rows (layout.others) hold the source's title alone: shown as text, escaped.
    others = [o if "title_html" in o else dict(o, title_html=str(escape(o["title"]))) for o in others]
    page = f"terms/{slug}.html"
    # Previous and next within the entry's section (the whole index when no row names one).
    previous, following = reading.section_neighbours(others, slug)
    by_slug = {o["slug"]: o for o in others}
    titles = reading.section_titles(params.get("sections", []))
    section_id = meta.get("section")
    section = {"id": section_id, "title": titles[section_id]} if section_id in titles else None
    context = dict(
        site_title=config["site_title"], page=page, entry=meta, slug=slug,
        prose=pages.accessible_prose(prose_html), referenced_by=params.get("referenced_by", []),
        referring={other: pages.accessible_prose(sentence) for other, sentence in params.get("referring", {}).items()},
        others=others, previous=previous, following=following, has_demo="script" in inp, section=section,
        # in the order the entry gives them, as its PDF and the authors' book print them
        see_also=[by_slug[s] for s in meta.get("see_also", []) if s in by_slug],
        prose_figures=len(PROSE_FIGURE.findall(prose_html)),
        site=params.get("site", {}),
        bibtex=pages.bibtex(slug, meta["title"], dict(params.get("site", {}), title=config["site_title"]),
                            f"{base}{page}" if base else None, "demo" in meta),
    )
    if "script" in inp:
        context.update(demo_context(inp, slug, config))
    template = Path(inp["template"])
    context.update(pages.edition_context(inp["edition"]))
    return pages.environment(template.parent).get_template(template.name).render(**context)


def demo_context(inp, slug, config):
    """What a page shows of its entry's demo: check lines, figures, preview, source, downloads."""
    checks = "".join(Path(p).read_text(encoding="utf-8") for p in sorted(as_list(inp["checks"])))
    script = Path(inp["script"]).read_text(encoding="utf-8")
    head, blocks = demo.blocks(script)
    code_blocks, seen = [], set()
    for name, text, source in blocks:
        anchor = name if name not in seen else f"{name}-{len(seen)}"   # ids stay unique
        seen.add(anchor)
        code_blocks.append({"name": name, "anchor": anchor, "text": text, "html": pages.code(source)})
    return dict(
        checks=checks.rstrip("\n").split("\n"),
        csvs=sorted(p.name for p in Path(inp["data"]).glob("*.csv")),
        colab=config["colab_prefix"] + f"{slug}.ipynb",
        figure_sizes={Path(p).stem: pages.svg_size(p) for p in as_list(inp["svgs"])},
        preview_size=pages.png_size(inp["preview"]),
        code_head=pages.code(head), code_lines=script.count("\n"),
        code_blocks=code_blocks,
    )


def run(job):
    Path(job["output"]["html"]).write_text(render(job, job["prose_html"]), encoding="utf-8")


def batch_jobs(smk):
    """The page jobs of rule page_<batch>, one per entry, as plain data (render's input)."""
    view = jsonio.read_compact(smk.input["view"])     # what this batch's pages show of the catalog (glossary.catalog)
    others = catalog.in_order(view)
    rows = {row["slug"]: row for row in view["entries"]}
    prose_of = batchfiles.read(smk.input["prose"])
    jobs = []
    for entry in batchfiles.read_entries(smk.input["entries"]):
        slug = entry["slug"]
        inp = {"template": smk.input["template"], "base": smk.input["base"], "edition": smk.input["edition"]}
        if "demo" in entry:
            inp.update({k: plain(v) for k, v in layout.page_inputs(slug, {slug: entry}).items()
                        if k not in inp})
        meta = dict(entries.front_matter(entry), **{k: rows[slug][k] for k in ("title", "title_html", "summary",
                                                                              "summary_html")})
        shown = shown_rows(others, slug, meta, view["referenced_by"][slug])
        jobs.append({"slug": slug, "input": inp, "prose_html": prose_of[slug]["html"],
                     "params": {"meta": meta, "others": shown, "base_url": smk.params["base_url"],
                                "referenced_by": view["referenced_by"][slug],
                                "referring": view["referring"].get(slug, {}), "site": smk.params["site"],
                                "sections": view["sections"]},
                     "config": {"site_title": smk.params["site_title"], "colab_prefix": smk.config["colab_prefix"]},
                     "output": {"html": str(batchfiles.site_file("page", smk.output["html"], slug))}})
    return jobs


def shown_rows(others, slug, meta, referenced_by):
    """The rows of `others` a page shows (its own, its previous and next, "See also", "Referenced by"),
    in their order: render's output is the same as with all of them, and a page's key holds no others."""
    previous, following = reading.section_neighbours(others, slug)
    shown = {slug, *meta.get("see_also", []), *referenced_by} | {o["slug"] for o in (previous, following) if o}
    return [o for o in others if o["slug"] in shown]


def page_key(job, code):
    """sha256 of what a page is made of: its job (params, the paths it reads), its prose's bytes and
    `code` (the modules and templates of the render)."""
    prose_bytes = job["prose_html"].encode()
    made_of = json.dumps({k: job[k] for k in ("slug", "input", "params", "config")}, sort_keys=True, default=str)
    return hashlib.sha256(b"\0".join([code, made_of.encode(), prose_bytes])).hexdigest()


def run_batch(smk):
    """Each page of the batch, rendered only when its key changed, else taken from `cache`: a batch that
    reruns for one of its pages (an edit, a quoted sentence) renders that page alone.  A page with a demo
    reads its results' files too: it is always rendered.  The log names the pages rendered."""
    cache = Path(smk.params["cache"])
    cache.mkdir(parents=True, exist_ok=True)
    Path(smk.output["html"]).mkdir(parents=True, exist_ok=True)
    code = hashlib.sha256(b"".join(Path(p).read_bytes() for p in [smk.input["lib"], smk.input["template"],
                                                                 smk.input["base"], smk.input["edition"]])).digest()
    rendered = []
    for job in batch_jobs(smk):
        kept = None if "script" in job["input"] else cache / f"{page_key(job, code)}.html"
        if kept is not None and kept.is_file():
            Path(job["output"]["html"]).write_bytes(kept.read_bytes())
            continue
        run(job)
        rendered.append(job["slug"])
        if kept is not None:
            shutil.copyfile(job["output"]["html"], kept)
    print(f"rendered: {' '.join(rendered) or '(none)'}", file=sys.stderr)


# --- the preview: pages whose prose alone changed, rendered as the build renders them -------------

REPO = assets.ROOT


def dictionary_context(macro_files, repo=REPO):
    """What glossary.render.render_batch needs besides the entries, as scripts/prose.py builds it, from
    the last build's results (names.json, references.json; the working folder is the build's) and the
    dictionary's macro files."""
    names = jsonio.read("results/names.json")
    references = Path("results/references.json")
    return {
        "markdown_macros": prose.macro_lines((Path(repo) / "templates/notation.sty").read_text(encoding="utf-8")),
        "latex_macros": "".join(Path(p).read_text(encoding="utf-8") for p in macro_files),
        "targets": names["targets"], "titles": names["titles"], "labels": names["labels"],
        "words": names.get("words", {}),
        "references": jsonio.read(references) if references.is_file() else {},
        "code": "preview",     # render_batch's cache key only; the preview keeps no cache
    }


def dictionary_facts(slugs):
    """{slug: its demo's facts} from the last build's results/<slug>/facts/*.json (none without a demo)."""
    facts = {}
    for slug in slugs:
        for path in layout.fact_paths(slug):
            if Path(path).is_file():
                facts.setdefault(slug, {}).update(jsonio.read(path))
    return facts


def dictionary_prose(entries, context):
    """{slug: render_batch's result ("html", "summary", "summary_html", ...)} of these entries (their
    models, as results/_entries/<slug>.json holds them, with the prose as it is now)."""
    return render_batch(entries, dictionary_facts([e["slug"] for e in entries]), context, formats=("html",),
                        quotes=False)


def dictionary_job(entry, done, catalog, site, repo=REPO, referring=None):
    """The page job of one entry as rule page_<batch> runs it (batch_jobs), with the summary of its
    prose as rendered now (`done`, dictionary_prose's); site: {"title", "base_url", "site",
    "colab_prefix"}, the build's page parameters; referring: the sentences that refer to it, as the
    last build quoted them (glossary.catalog.last_backlinks)."""
    slug = entry["slug"]
    templates = Path(repo) / "templates"
    inp = {"template": str(templates / "entry.html.j2"),
           "base": str(templates / "base.html.j2"), "edition": "results/edition.json"}
    if "demo" in entry:
        inp.update({k: plain(v) for k, v in layout.page_inputs(slug, {slug: entry}).items() if k not in inp})
    summary = {"summary": done["summary"], "summary_html": done["summary_html"]}
    row = next(r for r in catalog["entries"] if r["slug"] == slug)
    others = [dict(r, **summary) if r["slug"] == slug else r for r in catalog["entries"]]
    meta = dict(entries.front_matter(entry), title=row["title"], title_html=row["title_html"], **summary)
    return {"slug": slug, "input": inp,
            "params": {"meta": meta, "others": others,
                       "base_url": site["base_url"], "referenced_by": catalog["referenced_by"][slug],
                       "referring": referring or {}, "site": site["site"], "sections": catalog["sections"]},
            "config": {"site_title": site["title"], "colab_prefix": site["colab_prefix"]},
            "output": {"html": f"results/site/terms/{slug}.html"}}


def dictionary_pages(entries, context, catalog, site, repo=REPO, backlinks=None):
    """{slug: the page's HTML} of these entries, their prose rendered now in one batch; backlinks: the
    last build's referring sentences (glossary.catalog.last_backlinks)."""
    done = dictionary_prose(entries, context)
    backlinks = backlinks or {}
    return {e["slug"]: render(dictionary_job(e, done[e["slug"]], catalog, site, repo, backlinks.get(e["slug"])),
                              done[e["slug"]]["html"])
            for e in entries}
