# Stage 4: the HTML pages, the stylesheet and build-info.json.


def page_facts(wildcards):
    return [f"results/{wildcards.entry}/facts/{step}.json" for step in ("tokenize", "train", "export")]


def page_checks(wildcards):
    name = Path(entry(wildcards)["preview"]).stem
    return [f"results/{wildcards.entry}/checks/{c}.txt"
            for c in ("1-tokenize", "2-train", "3-export", f"4-preview-{name}")]


def others(wildcards=None):
    """Every entry's slug, title and summary, for links between pages (alphabetical by title)."""
    rows = [{"slug": s, "title": e["title"], "summary": e["summary"], "see_also": e["see_also"]}
            for s, e in ENTRIES.items()]
    return sorted(rows, key=lambda r: (r["title"].lower(), r["slug"]))


rule page:
    message: "{wildcards.entry}: HTML page"
    input:
        entry=lambda wc: entry(wc)["path"],
        template="templates/entry.html.j2",
        base="templates/base.html.j2",
        facts=page_facts,
        checks=page_checks,
        data=SITE + "/terms/{entry}/data",
        lib=lib("entries", "jsonio", "pages"),
    output:
        html=SITE + "/terms/{entry}.html",
    params:
        meta=lambda wc: {k: v for k, v in entry(wc).items() if k not in ("body", "path")},
        others=others,
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
    output:
        css=SITE + "/style.css",
    log:
        "logs/stylesheet/style.log",
    shell:
        "cp {input.css:q} {output.css:q} 2> {log:q}"


rule build_info:
    message: "build-info.json"
    input:
        lock="requirements.lock",
        config="config.yaml",
        lib=lib("jsonio"),
    output:
        info=SITE + "/build-info.json",
    log:
        "logs/build_info/build_info.log",
    script:
        "../../scripts/build_info.py"
