"""Where the workflow keeps an entry's files: the one definition of the page job's inputs and
params, used by the rules (workflow/rules/common.smk), the page job (glossary.pagejob) and the
preview, which renders the same page outside Snakemake."""
import re
import unicodedata
from pathlib import Path

from glossary import entries as glossary_entries
from glossary import xref

STAGED = "results/site"
# where the staged site keeps each entry's files (its figures, pictures and demo's files are there)
STAGED_TERMS = f"{STAGED}/terms"


# What a title's TeX markup sorts as: font switches and accents go, a command is its name
# ($\\sigma$-algebra as sigma-algebra, Erd\\H{o}s as Erdos), then letters without their accents.
TEX_FONT = re.compile(r"\\(?:bf|rm|it|sf|tt|cal|mathbf|mathrm|mathit|mathcal|mathbb|boldsymbol|bm|text|textbf|"
                      r"textit|emph)(?![A-Za-z])\s*")
TEX_ACCENT = re.compile(r"\\(?:[HcvudbtrkH](?=\{)|['`\"^~=.])")


def title_order(slug, title, sort=None):
    """The order of the index, the book and llms.txt: alphabetical by title (read as its letters,
    whatever TeX or accents it holds), or by the term's own sort key (glossaries' sort=, which puts
    "$0/1$ loss" among the z's as "zerooneloss"), then by slug."""
    key = TEX_ACCENT.sub("", TEX_FONT.sub("", sort if sort else title))
    key = re.sub(r"\\([A-Za-z]+)", r"\1", key).replace("\\ ", " ")
    key = unicodedata.normalize("NFKD", re.sub(r"[${}]", "", key))
    return "".join(c for c in key if not unicodedata.combining(c)).lower(), slug


def others(loaded):
    """Every entry's slug, title and summary, for links between pages (alphabetical by title)."""
    rows = [{"slug": s, "title": e["title"], "summary": e["summary"], "see_also": e["see_also"],
             "sort": e.get("sort")} for s, e in loaded.items()]
    return [{k: v for k, v in r.items() if k != "sort"}
            for r in sorted(rows, key=lambda r: title_order(r["slug"], r["title"], r["sort"]))]


def page_inputs(slug, loaded):
    """The named inputs of rule page for entry `slug` (relative to the workflow's folder)."""
    entry = loaded[slug]
    terms = STAGED_TERMS
    preview = Path(entry["preview"]).stem
    return {
        "template": "templates/entry.html.j2",
        "base": "templates/base.html.j2",
        "edition": "results/edition.json",
        "checks": [f"results/{slug}/checks/{c}.txt"
                   for c in ("1-tokenize", "2-train", "3-export", f"4-preview-{preview}")],
        "data": f"{terms}/{slug}/data",
        "script": f"{terms}/{slug}.py",
        "svgs": [f"{terms}/{slug}/figures/{f['name']}.svg" for f in entry["figures"]],
        "preview": f"{terms}/{slug}/{entry['preview']}",
    }


def fact_paths(slug):
    """The facts of entry `slug`'s demo run, in the order the prose reads them (a later one wins)."""
    return [f"results/{slug}/facts/{step}.json" for step in ("tokenize", "train", "export")]


def prose_inputs(slug, loaded):
    """The named inputs of rule prose for entry `slug`: the prose, the run's facts, the notation."""
    return {"entry": loaded[slug]["path"],
            "facts": fact_paths(slug),
            "notation": "templates/notation.sty"}


def prose_params(slug, loaded):
    """The titles its [[slug]] links show, and what its published Markdown's head says."""
    return {"titles": xref.titles(loaded, slug), "title": loaded[slug]["title"],
            "summary": loaded[slug]["summary"]}


def page_params(slug, loaded, config):
    return {"meta": glossary_entries.front_matter(loaded[slug]), "others": others(loaded),
            "base_url": config.get("site_url", ""), "referenced_by": xref.referenced_by(loaded)[slug]}
