# Stage 1: the demo's own functions, on the pinned numeric platform.
# corpus -> tokens -> trained model -> CSVs (results/<entry>/data, staged into the site).
#
# These jobs are keyed on what the demo's code means, not on its bytes: the demo
# is not an input but a param, with its code key (glossary.codekey: the syntax
# tree without docstrings), so a comment, docstring or blank-line edit reruns
# nothing here, while publish_demo and notebook still republish the script.
# They are cacheable between clones (`--cache`, SNAKEMAKE_OUTPUT_CACHE): the
# cache key covers the scripts, the lib inputs, these params and the platform.
import platform
from importlib.metadata import version

from glossary import codekey

# Everything that makes the numbers differ besides the code: reruns (and cache misses) when it changes.
PLATFORM = {"numeric_env": config["numeric_env"], "python": platform.python_version(),
            "numpy": version("numpy")}
_CODE_KEYS = {}


def code_key(wildcards):
    path = demo(wildcards)
    if path not in _CODE_KEYS:
        _CODE_KEYS[path] = codekey.file_key(path)
    return _CODE_KEYS[path]


rule tokenize:
    message: "{wildcards.entry}: tokenize the corpus"
    priority: PRIORITY["compute"]
    input:
        lib=lib("demo", "jsonio", "numeric", "steps"),
    output:
        data="results/{entry}/tokens.json",
        facts="results/{entry}/facts/tokenize.json",
        checks="results/{entry}/checks/1-tokenize.txt",
    params:
        demo=demo,
        code=code_key,
        platform=PLATFORM,
    log:
        "logs/tokenize/{entry}.log",
    cache: True
    script:
        "../../scripts/tokenize_corpus.py"


rule train:
    message: "{wildcards.entry}: train the model"
    priority: PRIORITY["compute"]
    input:
        data="results/{entry}/tokens.json",
        lib=lib("demo", "jsonio", "numeric", "steps"),
    output:
        model="results/{entry}/model.json",
        facts="results/{entry}/facts/train.json",
        checks="results/{entry}/checks/2-train.txt",
    params:
        demo=demo,
        code=code_key,
        platform=PLATFORM,
    log:
        "logs/train/{entry}.log",
    cache: True
    script:
        "../../scripts/train.py"


rule export_csv:
    message: "{wildcards.entry}: export the CSVs"
    priority: PRIORITY["compute"]
    input:
        data="results/{entry}/tokens.json",
        model="results/{entry}/model.json",
        lib=lib("demo", "entries", "jsonio", "numeric", "steps"),
    output:
        data=directory("results/{entry}/data"),
        facts="results/{entry}/facts/export.json",
        checks="results/{entry}/checks/3-export.txt",
    params:
        demo=demo,
        code=code_key,
        platform=PLATFORM,
        entry_file=lambda wc: entry(wc)["path"],
        csv=lambda wc: entry(wc).get("csv"),
    log:
        "logs/export_csv/{entry}.log",
    cache: True
    script:
        "../../scripts/export_csv.py"


# The cache hands back its files as symlinks (a stored directory as a symlink
# to itself): the site gets plain copies.
rule stage_data:
    message: "{wildcards.entry}: stage the CSVs"
    priority: PRIORITY["compute"]
    input:
        data="results/{entry}/data",
    output:
        data=directory(SITE + "/terms/{entry}/data"),
    log:
        "logs/stage_data/{entry}.log",
    shell:
        "mkdir -p {output.data:q} && find -L {input.data:q} -maxdepth 1 -type f ! -name .snakemake_timestamp"
        " -exec cp {{}} {output.data:q} ';' 2> {log:q}"
