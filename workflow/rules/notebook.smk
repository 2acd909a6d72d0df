# Stage 3: what readers download to rerun the demo: the script and its notebook.


rule publish_demo:
    message: "{wildcards.entry}: publish the demo script"
    input:
        demo=demo,
        lib=lib("demo", "notebook", "numeric"),
    output:
        script=SITE + "/terms/{entry}.py",
    log:
        "logs/publish_demo/{entry}.log",
    script:
        "../../scripts/publish_demo.py"


rule notebook:
    message: "{wildcards.entry}: notebook from the demo script"
    input:
        script=SITE + "/terms/{entry}.py",
        lib=lib("demo", "notebook", "numeric"),
    output:
        notebook=SITE + "/terms/{entry}.ipynb",
    params:
        title=lambda wc: entry(wc)["title"],
        summary=lambda wc: entry(wc)["summary"],
    log:
        "logs/notebook/{entry}.log",
    script:
        "../../scripts/notebook.py"
