"""The catalog of a build (results/catalog.json): every entry's title, section, summary and related
entries, in the index's order, and for each entry the others that refer to it.  Pages, the index,
terms.json, llms.txt and the book read it; it is built from the prose jobs' results, so that a
summary taken from an entry's first sentence is known everywhere."""
from glossary.layout import title_order


def build(metas, names, sections, see_also):
    rows = [{"slug": m["slug"], "title": names["titles"][m["slug"]], "summary": m["summary"],
             "summary_html": m["summary_html"],
             "section": names["sections"][m["slug"]], "see_also": see_also.get(m["slug"], [])}
            for m in metas]
    rows.sort(key=lambda r: title_order(r["slug"], r["title"]))
    back = {r["slug"]: set() for r in rows}
    for m in metas:
        for target in m["refs"]:
            if target != m["slug"] and target in back:
                back[target].add(m["slug"])
    return {"entries": rows, "sections": sections,
            "referenced_by": {slug: sorted(sources) for slug, sources in sorted(back.items())}}


def others(catalog):
    """The rows pages use to link to other entries (layout.others' shape)."""
    return catalog["entries"]


def with_summaries(metas, catalog):
    """Entries' metadata with the summaries the catalog holds (taken from the prose when the source
    gives none)."""
    summaries = {row["slug"]: row["summary"] for row in catalog["entries"]}
    return {slug: dict(meta, summary=summaries[slug]) for slug, meta in metas.items()}
