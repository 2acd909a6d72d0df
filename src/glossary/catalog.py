"""The catalog of a build (results/catalog.json): every entry's title, section, summary and related
entries, in the index's order, and for each entry the others that refer to it.  Pages, the index,
terms.json, llms.txt and the book read it; it is built from the prose jobs' results, so that a
summary taken from an entry's first sentence is known everywhere.

The sentences in which entries refer to each other are not in it: every page and print batch reads
the catalog, and most sentences refer to some entry, so an edit inside one would rerun them all.
They go to one file per batch (results/backlinks/<batch>.json, `backlinks()`), which only that
batch's page job reads."""
from pathlib import Path

from markupsafe import escape

from glossary import jsonio
from glossary.layout import title_order


def build(metas, names, sections, see_also):
    """The catalog.  An entry's title is its source's text unless the prose job rendered it
    (title_text: plain text, for sorting, <title> and the feeds; title_html: as the page shows it)."""
    rows = [{"slug": m["slug"], "title": m.get("title_text") or names["titles"][m["slug"]],
             "title_html": m.get("title_html") or str(escape(names["titles"][m["slug"]])),
             "title_latex": m.get("title_latex"),     # a name read as TeX, for the print edition's links
             "summary": m["summary"], "summary_html": m["summary_html"],
             "section": names["sections"][m["slug"]], "see_also": see_also.get(m["slug"], [])}
            for m in metas]
    for r in rows:
        # the name's letters, or the term's own sort key
        r["sort_as"] = title_order(r["slug"], names["titles"][r["slug"]], names.get("sort", {}).get(r["slug"]))[0]
    rows.sort(key=lambda r: (r["sort_as"], r["slug"]))
    back = {r["slug"]: set() for r in rows}
    for m in metas:
        for target in m["refs"]:
            if target != m["slug"] and target in back:
                back[target].add(m["slug"])
    return {"entries": rows, "sections": sections,
            "referenced_by": {slug: sorted(sources) for slug, sources in sorted(back.items())},
            "unknown": unknown(metas, names)}


BACKLINKS = "results/backlinks"


def backlinks_path(batch):
    return f"{BACKLINKS}/{batch}.json"


def backlinks(metas, batches):
    """{batch: {entry of the batch: {entry that refers to it: the first sentence of its prose that
    does so, as HTML}}}: what each page's "Referenced by" list quotes (the prose jobs' `contexts`)."""
    quoted = {}
    for m in metas:
        for target, sentence in m.get("contexts", {}).items():
            if target != m["slug"]:
                quoted.setdefault(target, {})[m["slug"]] = sentence
    return {batch: {slug: dict(sorted(quoted[slug].items())) for slug in sorted(slugs) if slug in quoted}
            for batch, slugs in batches.items()}


def last_backlinks(root="."):
    """{entry: {entry that refers to it: sentence}} as the last build's backlinks files hold them: for
    the preview, which renders pages outside the build ({} before the first build)."""
    found = {}
    for path in sorted((Path(root) / BACKLINKS).glob("*.json")):
        found.update(jsonio.read(path))
    return found


def unknown(metas, names):
    """The constructs the readers did not know, shown as text on the pages: each once, with how
    often it occurs and the first entry that has it."""
    found = {}
    for m in sorted(metas, key=lambda m: m["slug"]):
        for construct in m.get("unknown", []):
            row = found.setdefault(construct, {"construct": construct, "count": 0, "first": m["slug"]})
            row["count"] += 1
    return sorted(found.values(), key=lambda r: (-r["count"], r["construct"]))


def unknown_note(catalog, limit=8):
    """The build's note on the constructs shown as text (None when there are none)."""
    rows = catalog.get("unknown", [])
    if not rows:
        return None
    shown = ", ".join(f"{r['construct']} ({r['count']}x, first in terms/{r['first']}.html)" for r in rows[:limit])
    more = f", and {len(rows) - limit} more" if len(rows) > limit else ""
    return (f"note: {sum(r['count'] for r in rows)} LaTeX constructs the reader does not know are shown as text: "
            f"{shown}{more}")


def others(catalog):
    """The rows pages use to link to other entries (layout.others' shape)."""
    return catalog["entries"]


def with_summaries(metas, catalog):
    """Entries' metadata with the titles (plain text) and summaries the catalog holds (a summary
    taken from the prose when the source gives none)."""
    rows = {row["slug"]: row for row in catalog["entries"]}
    return {slug: dict(meta, title=rows[slug]["title"], summary=rows[slug]["summary"]) for slug, meta in metas.items()}
