# The demos a LaTeX dictionary's YAML file gives its terms as plain scripts (`kind: plain`): the
# authors' script runs as a script in a scratch folder, on the pinned numeric platform, and its CSVs,
# preview image and printed lines land where a blocks demo's results do (results/<term>/data,
# checks/, facts/, terms/<term>/<term>.png), so that stage_data, the figures, the pages and the print
# edition take them as they take a blocks demo's.  The published script is the authors' own.
# A blocks demo of a LaTeX term runs through compute.smk's rules; a term without a demo has no jobs.


if PLAN.plain_slugs():

    # On a plain script's files these rules come before the blocks demo's that write the same names.
    ruleorder: plain_demo > compute
    ruleorder: plain_demo > preview
    ruleorder: publish_plain > publish_demo

    rule plain_demo:
        input:
            script=demo,
            lib=lib("plain_demo"),
        output:
            data=directory("results/{entry}/data"),
            facts=[f"results/{{entry}}/facts/{step}.json" for step in ("tokenize", "train", "export")],
            checks=[
                f"results/{{entry}}/checks/{name}.txt"
                for name in ("1-tokenize", "2-train", "3-export", "4-preview-{entry}")
            ],
            preview="results/site/terms/{entry}/{entry}.png",
        log:
            "logs/plain_demo/{entry}.log",
        wildcard_constraints:
            entry="|".join(PLAN.plain_slugs()),
        priority: PRIORITY["compute"]
        params:
            key=lambda wildcards: entry(wildcards)["key"],
            csv=declared_csv,
            image=lambda wildcards: PLAN.demo_scripts[wildcards.entry]["image"],
            platform=PLATFORM,
        message:
            "{wildcards.entry}: run the plain demo script"
        script:
            "../../scripts/plain_demo.py"

    rule publish_plain:
        input:
            script=demo,
        output:
            script="results/site/terms/{entry}.py",
        log:
            "logs/publish_plain/{entry}.log",
        wildcard_constraints:
            entry="|".join(PLAN.plain_slugs()),
        localrule: True
        message:
            "{wildcards.entry}: publish the plain demo script"
        shell:
            "cp {input.script:q} {output.script:q} 2> {log:q}"
