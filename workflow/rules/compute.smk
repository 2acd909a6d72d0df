# Stage 1: the demo's own functions, on the pinned numeric platform.
# corpus -> tokens -> trained model -> published CSVs.


rule tokenize:
    message: "{wildcards.entry}: tokenize the corpus"
    input:
        demo=demo,
        lib=lib("demo", "jsonio", "numeric", "steps"),
    output:
        data="results/{entry}/tokens.json",
        facts="results/{entry}/facts/tokenize.json",
        checks="results/{entry}/checks/1-tokenize.txt",
    log:
        "logs/tokenize/{entry}.log",
    script:
        "../../scripts/tokenize.py"


rule train:
    message: "{wildcards.entry}: train the model"
    input:
        demo=demo,
        data="results/{entry}/tokens.json",
        lib=lib("demo", "jsonio", "numeric", "steps"),
    output:
        model="results/{entry}/model.json",
        facts="results/{entry}/facts/train.json",
        checks="results/{entry}/checks/2-train.txt",
    log:
        "logs/train/{entry}.log",
    script:
        "../../scripts/train.py"


rule export_csv:
    message: "{wildcards.entry}: export the CSVs"
    input:
        demo=demo,
        data="results/{entry}/tokens.json",
        model="results/{entry}/model.json",
        lib=lib("demo", "jsonio", "numeric", "steps"),
    output:
        data=directory(SITE + "/terms/{entry}/data"),
        facts="results/{entry}/facts/export.json",
        checks="results/{entry}/checks/3-export.txt",
    log:
        "logs/export_csv/{entry}.log",
    script:
        "../../scripts/export_csv.py"
