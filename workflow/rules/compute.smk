# Stage 1: the demo's own functions, on the pinned numeric platform.
# corpus -> tokens -> trained model -> CSVs (results/<entry>/data, staged into the site):
# prepare(), train(data) and export(data, model, folder), each step's result, facts and
# printed lines in files of its own.
#
# The job is keyed on what the demo's code means, not on its bytes: the demo
# is not an input but a param, with its code key (glossary.codekey: the syntax
# tree without docstrings), so a comment, docstring or blank-line edit reruns
# nothing here, while publish_demo and notebook still republish the script.
# It is cacheable between clones (`--cache`, SNAKEMAKE_OUTPUT_CACHE): the
# cache key covers the script, the lib input, these params and the platform.
# The data files an entry.md declares (`data`) are inputs: editing one retrains that entry.


# One job for the three steps: as three jobs, the two short ones paid a Python start, numpy and the
# demo's import each, before and after the training, on the path of everything after it.
rule compute:
    input:
        lib=lib("compute"),
        declared=entry_data,
    output:
        tokens="results/{entry}/tokens.json",
        model="results/{entry}/model.json",
        data=directory("results/{entry}/data"),
        tokenize_facts="results/{entry}/facts/tokenize.json",
        train_facts="results/{entry}/facts/train.json",
        export_facts="results/{entry}/facts/export.json",
        tokenize_checks="results/{entry}/checks/1-tokenize.txt",
        train_checks="results/{entry}/checks/2-train.txt",
        export_checks="results/{entry}/checks/3-export.txt",
    log:
        "logs/compute/{entry}.log",
    cache: True
    priority: PRIORITY["compute"]
    params:
        demo=demo,
        code=code_key,
        platform=PLATFORM,
        entry_file=demo_file,
        csv=declared_csv,
    message:
        "{wildcards.entry}: tokenize the corpus, train the model, export the CSVs"
    script:
        "../../scripts/compute.py"


# The cache hands back its files as symlinks (a stored directory as a symlink
# to itself): the site gets plain copies.
rule stage_data:
    input:
        data="results/{entry}/data",
    output:
        data=directory("results/site/terms/{entry}/data"),
    log:
        "logs/stage_data/{entry}.log",
    priority: PRIORITY["compute"]
    message:
        "{wildcards.entry}: stage the CSVs"
    shell:
        "mkdir -p {output.data:q} && find -L {input.data:q} -maxdepth 1 -type f ! -name .snakemake_timestamp"
        " -exec cp {{}} {output.data:q} ';' 2> {log:q}"
