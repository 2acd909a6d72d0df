# Stage 3: what readers download to rerun the demo: the script and its notebook.


rule publish_demo:
    input:
        demo=demo,
        lib=lib("publish_demo"),
    output:
        script="results/site/terms/{entry}.py",
    log:
        "logs/publish_demo/{entry}.log",
    localrule: True
    message:
        "{wildcards.entry}: publish the demo script"
    run:
        in_process("publish_demo", input, output, params, wildcards, threads, log)


rule notebook:
    input:
        script="results/site/terms/{entry}.py",
        lib=lib("notebook"),
    output:
        notebook="results/site/terms/{entry}.ipynb",
    log:
        "logs/notebook/{entry}.log",
    localrule: True
    params:
        title=entry_title,
        # A LaTeX term has no one-line summary of its own: its notebook says none.
        summary=lambda wildcards: entry_summary(wildcards) or "",
        # the authors' own script (demos.smk) prints what it prints, not one line per check
        plain=lambda wildcards: entry(wildcards).get("demo_kind") == "plain",
    message:
        "{wildcards.entry}: notebook from the demo script"
    run:
        in_process("notebook", input, output, params, wildcards, threads, log)
