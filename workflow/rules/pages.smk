# Stage 4: the HTML pages, the stylesheet (with the code colours), the
# machine-readable terms.json and sitemap.xml, and build-info.json.

# URLs are relative to the site's root unless config.yaml names where it is served
# (`site_url`, ending in "/"): then the BibTeX records and sitemap.xml use it.
BASE_URL = config.get("site_url", "")


def page_facts(wildcards):
    return [f"results/{wildcards.entry}/facts/{step}.json" for step in ("tokenize", "train", "export")]


def page_checks(wildcards):
    name = Path(entry(wildcards)["preview"]).stem
    return [f"results/{wildcards.entry}/checks/{c}.txt"
            for c in ("1-tokenize", "2-train", "3-export", f"4-preview-{name}")]


def entry_meta(slug):
    return glossary_entries.front_matter(ENTRIES[slug])


def others(wildcards=None):
    """Every entry's slug, title and summary, for links between pages (alphabetical by title)."""
    rows = [{"slug": s, "title": e["title"], "summary": e["summary"], "see_also": e["see_also"]}
            for s, e in ENTRIES.items()]
    return sorted(rows, key=lambda r: (r["title"].lower(), r["slug"]))


rule page:
    message: "{wildcards.entry}: HTML page"
    priority: PRIORITY["page_path"]
    input:
        entry=lambda wc: entry(wc)["path"],
        template="templates/entry.html.j2",
        base="templates/base.html.j2",
        facts=page_facts,
        checks=page_checks,
        data=SITE + "/terms/{entry}/data",
        script=SITE + "/terms/{entry}.py",
        svgs=lambda wc: [f"{SITE}/terms/{wc.entry}/figures/{f['name']}.svg" for f in entry(wc)["figures"]],
        preview=lambda wc: f"{SITE}/terms/{wc.entry}/{entry(wc)['preview']}",
        lib=lib("demo", "entries", "jsonio", "pages", "pagejob"),
    output:
        html=SITE + "/terms/{entry}.html",
        job="results/{entry}/page.job.json",    # what `make site` replays after a prose-only edit
    params:
        meta=lambda wc: entry_meta(wc.entry),
        others=others,
        base_url=BASE_URL,
    log:
        "logs/page/{entry}.log",
    script:
        "../../scripts/page.py"


rule index:
    message: "index of the terms"
    input:
        template="templates/index.html.j2",
        base="templates/base.html.j2",
        lib=lib("pages", "entries"),
    output:
        html=SITE + "/index.html",
    params:
        others=others,
    log:
        "logs/index/index.log",
    script:
        "../../scripts/index.py"


rule stylesheet:
    message: "stylesheet"
    input:
        css="templates/style.css",
        lib=lib("entries", "pages"),
    output:
        css=SITE + "/style.css",
    log:
        "logs/stylesheet/style.log",
    script:
        "../../scripts/stylesheet.py"


rule terms_json:
    message: "terms.json"
    input:
        lib=lib("entries", "jsonio", "pages"),
    output:
        json=SITE + "/terms.json",
    params:
        metas=lambda wc: {slug: entry_meta(slug) for slug in ENTRIES},
        base_url="",    # relative to the site's root: the site works under any prefix
    log:
        "logs/terms_json/terms_json.log",
    script:
        "../../scripts/terms_json.py"


rule sitemap:
    message: "sitemap.xml"
    input:
        lib=lib("entries", "pages"),
    output:
        xml=SITE + "/sitemap.xml",
    params:
        pages=lambda wc: ["index.html"] + [f"terms/{slug}.html" for slug in ENTRIES],
        base_url=BASE_URL,
    log:
        "logs/sitemap/sitemap.log",
    script:
        "../../scripts/sitemap.py"


rule build_info:
    message: "build-info.json"
    input:
        lock="requirements.lock",
        config="config.yaml",
        lib=lib("jsonio", "latex"),
    output:
        info=SITE + "/build-info.json",
    params:
        tex=TEX_VERSIONS,
    log:
        "logs/build_info/build_info.log",
    script:
        "../../scripts/build_info.py"
