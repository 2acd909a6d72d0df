# Stage 5: the link check of the staged site, before `make site` publishes it: a
# dead internal link fails the build (glossary.links), one line per link in the log.


# What the link check does not wait for: the book, which checks its own links (rule book), and the
# search's scripts, which it does not read. It runs beside their jobs.
BESIDE = {BOOK, *SEARCH_FILES}
# It reruns after any edit of a page: its inputs (every file of the site) are not hashed (common.smk).
UNHASHED.add("links")


rule links:
    input:
        site=[f for f in PLAN.made_files() if f not in BESIDE],
        # the site's files by their names there (glossary.publish.write_listing)
        listing=publish.listing_path(plan.STAGED),
        # the sources, where a dead link is looked for (each file once: a file holds hundreds of terms)
        entries=sorted({e["path"] for e in ENTRIES.values()}),
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
        targets=LINK_TARGETS,
        # the site's files it does not wait for: there, not read here
        beside=sorted(os.path.relpath(f, plan.STAGED) for f in BESIDE),
        # what each page and PDF holds, by its bytes: an edit's check parses only what changed
        cache="results/cache/links.json",
    message:
        "link check of the site"
    script:
        "../../scripts/links.py"
