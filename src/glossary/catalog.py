"""The catalog of a build (results/catalog.json): every entry's title, section, summary and related
entries, in the index's order, and for each entry the others that refer to it.  Pages, the index,
terms.json and llms.txt read it; it is built from the prose jobs' results, so that a summary taken from
an entry's first sentence is known everywhere.

Each page batch reads, instead of the catalog, its batch's view (results/views/<batch>.json, `views()`):
the rows its pages show (their own, their "See also", "Referenced by" and previous and next entries) and
the sentences in which other entries refer to its entries.  A view changes only when something its batch
shows changes, so a summary or a quoted sentence edited reruns the batches that show it, not all of them
(the catalog is a checkpoint: Snakemake decides on its readers after it ran, by the checksums of what it
wrote).  The print edition shows no summary or quote: its sections and PDFs read the names alone
(names.json, `names_shown()`), and so never wait for the catalog.
"""
from pathlib import Path

from markupsafe import escape

from glossary import jsonio
from glossary.layout import title_order


def names_shown(names, slugs):
    """{slug: {"slug", "title", "title_html", "title_latex"}} of `slugs`, from names.json (`names`): a
    name is its source's text unless its reader read it as prose (names["read"], glossary.render.names_read:
    "title" then its plain text, for sorting, <title> and the feeds; "title_html" as the page shows it;
    "title_latex" as the print edition sets it, else None)."""
    shown = {}
    for slug in slugs:
        title, read = names["titles"][slug], names.get("read", {}).get(slug)
        shown[slug] = {"slug": slug, "title": read["text"] if read and read["text"] else title,
                       "title_html": read["html"] if read else str(escape(title)),
                       "title_latex": read["latex"] if read else None}
    return shown


def build(metas, names, sections, see_also):
    """The catalog: each entry's name (names_shown), summary, section and "See also", in the index's order."""
    shown = names_shown(names, [m["slug"] for m in metas])
    rows = [{"slug": m["slug"], "title": shown[m["slug"]]["title"], "title_html": shown[m["slug"]]["title_html"],
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


def from_prose(prose, made_by, names):
    """(the catalog, the entries' metas in its plan's order) of the prose jobs' results `prose` ({slug:
    ...}), the catalog's plan `made_by` (glossary.plan.CATALOG_PLAN's content) and `names` (names.json):
    what rule catalog writes, and what the search job, which reads the same prose, makes for itself so
    that it need not wait for the catalog."""
    see_also = dict(made_by["see_also"])
    metas = [prose[slug]["meta"] for slug in see_also]     # in the entries' order
    return build(metas, names, made_by["sections"], see_also), metas


VIEWS = "results/views"
# What a row of an entry shown only as a previous or next one holds: its link's text, its section and
# its place in the index.
NEIGHBOUR = ("slug", "title", "title_html", "section", "sort_as")


def view_path(batch):
    return f"{VIEWS}/{batch}.json"


def quotes(metas):
    """{entry: {entry that refers to it: the first sentence of its prose that does so, as HTML}}: what
    each page's "Referenced by" list quotes (the prose jobs' `contexts`)."""
    quoted = {}
    for m in metas:
        for target, sentence in m.get("contexts", {}).items():
            if target != m["slug"]:
                quoted.setdefault(target, {})[m["slug"]] = sentence
    return quoted


def views(catalog, metas, batches):
    """{batch: its page view}.  A page view holds of the catalog the rows the batch's pages show with a
    summary (theirs, "See also", an unquoted "Referenced by"; "entries", in the index's order), the rows
    they show by title alone (a previous or next entry, a quoted referrer; "neighbours", NEIGHBOUR's
    fields: an edit of their summary reruns nothing), the "Referenced by" lists of its entries and the
    sentences they quote."""
    rows = {row["slug"]: row for row in catalog["entries"]}
    sections = {}
    for row in catalog["entries"]:
        sections.setdefault(row["section"], []).append(row["slug"])
    place = {slug: i for same in sections.values() for i, slug in enumerate(same)}
    quoted = quotes(metas)
    pages = {}
    for batch, slugs in batches.items():
        summarised, titled = set(), set()
        for slug in slugs:
            row = rows[slug]
            summarised.update([slug, *row["see_also"]])
            referrers = set(catalog["referenced_by"][slug])
            summarised.update(referrers - set(quoted.get(slug, {})))
            titled.update(referrers)
            i = place[slug]
            titled.update(sections[row["section"]][max(i - 1, 0):i + 2])
        titled -= summarised
        pages[batch] = {
            "entries": [row for row in catalog["entries"] if row["slug"] in summarised],
            "neighbours": [{k: row[k] for k in NEIGHBOUR} for row in catalog["entries"] if row["slug"] in titled],
            "sections": catalog["sections"],
            "referenced_by": {slug: catalog["referenced_by"][slug] for slug in sorted(slugs)},
            "referring": {slug: dict(sorted(quoted[slug].items())) for slug in sorted(slugs) if slug in quoted}}
    return pages


def in_order(view):
    """A view's rows and neighbours in the index's order: the rows a page links to (layout.others' shape)."""
    return sorted(view["entries"] + view["neighbours"], key=lambda r: (r["sort_as"], r["slug"]))


def last_backlinks(root="."):
    """{entry: {entry that refers to it: sentence}} as the last build's views hold them: for the preview,
    which renders pages outside the build ({} before the first build)."""
    found = {}
    for path in sorted((Path(root) / VIEWS).glob("*.json")):
        if path.name.endswith(".print.json"):
            continue
        found.update(jsonio.read(path)["referring"])
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
