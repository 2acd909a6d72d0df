# Stage 1: the demo's own functions, on the pinned numeric platform.
# corpus -> tokens -> trained model -> CSVs (results/<entry>/data, staged into the site).
#
# These jobs are keyed on what the demo's code means, not on its bytes: the demo
# is not an input but a param, with its code key (glossary.codekey: the syntax
# tree without docstrings), so a comment, docstring or blank-line edit reruns
# nothing here, while publish_demo and notebook still republish the script.
# They are cacheable between clones (`--cache`, SNAKEMAKE_OUTPUT_CACHE): the
# cache key covers the scripts, the lib inputs, these params and the platform.
# The data files an entry.md declares (`data`) are inputs: editing one retrains that entry.


rule tokenize:
    input:
        lib=lib("tokenize_corpus"),
        declared=entry_data,
    output:
        data="results/{entry}/tokens.json",
        facts="results/{entry}/facts/tokenize.json",
        checks="results/{entry}/checks/1-tokenize.txt",
    log:
        "logs/tokenize/{entry}.log",
    cache: True
    priority: PRIORITY["compute"]
    params:
        demo=demo,
        code=code_key,
        platform=PLATFORM,
    message:
        "{wildcards.entry}: tokenize the corpus"
    script:
        "../../scripts/tokenize_corpus.py"


rule train:
    input:
        data="results/{entry}/tokens.json",
        lib=lib("train"),
        declared=entry_data,
    output:
        model="results/{entry}/model.json",
        facts="results/{entry}/facts/train.json",
        checks="results/{entry}/checks/2-train.txt",
    log:
        "logs/train/{entry}.log",
    cache: True
    priority: PRIORITY["compute"]
    params:
        demo=demo,
        code=code_key,
        platform=PLATFORM,
    message:
        "{wildcards.entry}: train the model"
    script:
        "../../scripts/train.py"


rule export_csv:
    input:
        data="results/{entry}/tokens.json",
        model="results/{entry}/model.json",
        lib=lib("export_csv"),
        declared=entry_data,
    output:
        data=directory("results/{entry}/data"),
        facts="results/{entry}/facts/export.json",
        checks="results/{entry}/checks/3-export.txt",
    log:
        "logs/export_csv/{entry}.log",
    cache: True
    priority: PRIORITY["compute"]
    params:
        demo=demo,
        code=code_key,
        platform=PLATFORM,
        entry_file=demo_file,
        csv=declared_csv,
    message:
        "{wildcards.entry}: export the CSVs"
    script:
        "../../scripts/export_csv.py"


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
