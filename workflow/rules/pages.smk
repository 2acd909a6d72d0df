# Stage 4: the HTML pages (by the batches of prose.smk); what is made of the catalog alone (the index,
# the section and abbreviations pages, terms.json, llms.txt, previews.js); the stylesheet (with the code
# colours), the favicon, sitemap.xml and build-info.json.


for batch, slugs in BATCHES.items():

    rule:
        name:
            f"page_{batch}"
        input:
            prose=batchfiles.prose_path(batch),
            entries=batchfiles.entries_path(batch),
            view=after_catalog(glossary_catalog.view_path(batch)),
            demo=PLAN.batch_page_inputs(slugs),
            pictures=PLAN.batch_pictures(batch),
            template=repo("templates/entry.html.j2"),
            base=repo("templates/base.html.j2"),
            edition=editions.VIEW,
            lib=lib("page"),
        output:
            html=directory(batchfiles.site_folder("page", batch)),
        log:
            f"logs/page/{batch}.log",
        priority: PRIORITY["page_path"]
        params:
            base_url=BASE_URL,
            site_title=DICTIONARY["title"],
            site=SITE,
            # each page by its key (glossary.pagejob.page_key): a rerun batch renders only what changed
            cache="results/cache/page",
        message:
            f"{batch}: HTML pages of {len(slugs)} entries"
        run:
            in_process("page", input, output, params, wildcards, threads, log)


rule notation:
    input:
        sty=repo("templates/notation.sty"),
    output:
        sty="results/site/notation.sty",
    log:
        "logs/notation/notation.log",
    localrule: True
    message:
        "notation.sty"
    shell:
        "cp {input.sty} {output.sty} 2> {log}"


rule catalog_pages:
    input:
        catalog=after_catalog(plan.CATALOG),
        # every entry's metadata (glossary.entries.front_matter), for terms.json and llms.txt
        metas=plan.METAS,
        forms=plan.FORMS,
        index=repo("templates/index.html.j2"),
        section=repo("templates/section.html.j2"),
        abbreviations=repo("templates/abbreviations.html.j2"),
        base=repo("templates/base.html.j2"),
        edition=editions.VIEW,
        lib=lib("catalog_pages"),
    output:
        index="results/site/index.html",
        sections=[f"results/site/sections/{s}.html" for s in PLAN.reading_sections()],
        abbreviations=["results/site/abbreviations.html"] if PLAN.abbreviations_page else [],
        terms_json="results/site/terms.json",
        llms_txt="results/site/llms.txt",
        previews="results/site/previews.js",
    log:
        "logs/catalog_pages/catalog_pages.log",
    localrule: True
    params:
        site_title=DICTIONARY["title"],
        site=SITE,
        # terms.json's URLs relative to the site's root: the site works under any prefix
        base_url="",
        site_url=BASE_URL,
    message:
        "the index, section and abbreviations pages, terms.json, llms.txt, previews.js"
    run:
        in_process("catalog_pages", input, output, params, wildcards, threads, log)


rule stylesheet:
    input:
        css=repo("templates/style.css"),
        lib=lib("stylesheet"),
    output:
        css="results/site/style.css",
    log:
        "logs/stylesheet/style.log",
    localrule: True
    message:
        "stylesheet"
    run:
        in_process("stylesheet", input, output, params, wildcards, threads, log)


rule favicon:
    input:
        lib=lib("favicon"),
    output:
        svg="results/site/favicon.svg",
        ico="results/site/favicon.ico",
    log:
        "logs/favicon/favicon.log",
    localrule: True
    message:
        "favicon"
    run:
        in_process("favicon", input, output, params, wildcards, threads, log)


rule sitemap:
    input:
        edition=editions.VIEW,
        lib=lib("sitemap"),
    output:
        xml="results/site/sitemap.xml",
    log:
        "logs/sitemap/sitemap.log",
    localrule: True
    params:
        # the notation and section pages too (workflow/rules/reading.smk)
        pages=PLAN.site_pages(),
        base_url=BASE_URL,
    message:
        "sitemap.xml"
    run:
        in_process("sitemap", input, output, params, wildcards, threads, log)


rule build_info:
    input:
        lock=repo("requirements.lock"),
        config=repo("config.yaml"),
        lib=lib("build_info"),
    output:
        info="results/site/build-info.json",
    log:
        "logs/build_info/build_info.log",
    params:
        tex=TEX_VERSIONS,
    message:
        "build-info.json"
    run:
        in_process("build_info", input, output, params, wildcards, threads, log)
