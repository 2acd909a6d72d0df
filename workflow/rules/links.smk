# Stage 5: the link check of the staged site, before `make site` publishes it: a
# dead internal link fails the build (glossary.links), one line per link in the log.


rule links:
    input:
        site=PLAN.site_files(),
        entries=[e["path"] for e in ENTRIES.values()],
        templates=[
            repo("templates/base.html.j2"),
            repo("templates/entry.html.j2"),
            repo("templates/index.html.j2"),
        ],
        lib=lib("links"),
    output:
        report="results/links/report.txt",
    log:
        "logs/links/links.log",
    params:
        site_url=config.get("site_url", ""),
        entries={slug: e["path"] for slug, e in ENTRIES.items()},
        # a language edition: where its folder is in the whole site, and the other editions' pages
        prefix=EDITION["prefix"],
        # and, in make serve's draft, the preview's pages of the terms left out
        outside=editions.Pages(EDITION).outside(PLAN.notation_pages()) + PLAN.draft_pages(),
        # what each page and PDF holds, by its bytes: an edit's check parses only what changed
        cache="results/cache/links.json",
    message:
        "link check of the site"
    script:
        "../../scripts/links.py"
