"""A working copy of the real dictionary (../shared/adictml, the Aalto Dictionary of Machine
Learning) with its known mistakes fixed, for `make bench` and for looking at the site it makes.

    python scripts/real_dictionary.py DEST     # prints DEST/dictionary.yaml

The sources are copied as their authors keep them; then, each told on the terminal:
- ADictML_Regulation.tex, term aisystem: \\cite{AIact} -> \\cite{AIAct} (the record's key; the build
  stops on the unknown key otherwise);
- two pgfplots pictures read CSV files that the shared subset of the authors' repository does not hold
  (assets/FMIData1.csv, finland_border.csv, fmi_stations_subset.csv): they get header-only files, so
  those pictures show their axes and labels without the data points.
DEST/dictionary.yaml names the main file and adds what it cannot say: title, address, the authors'
attribution and license, and the demos of the terms acc and auc (the authors' own scripts).
"""
import re
import shutil
import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "adictml"
FIXES = [
    ("ADictML_Regulation.tex", r"\\cite\{AIact\}", r"\\cite{AIAct}", "the cited record's key is AIAct"),
]
# Data files the pictures read that the shared subset lacks: their header lines only.
MISSING_DATA = {"assets/FMIData1.csv": "mintmp;maxtmp\n", "assets/finland_border.csv": "lon,lat\n",
                "assets/fmi_stations_subset.csv": "lon,lat\n"}
CONFIG = """\
# The real dictionary, as make bench and the looking build it (scripts/real_dictionary.py).
main: ADictML_Main.tex
title: The Aalto Dictionary of Machine Learning
url: https://aaltodictionaryofml.github.io/
attribution: >-
  From The Aalto Dictionary of Machine Learning by Alexander Jung and contributors, Aalto University
  (AaltoDictionaryofML/AaltoDictionaryofML.github.io, commit a9d5523).
license: Creative Commons Attribution 4.0 International (CC BY 4.0)
description: >-
  The Aalto Dictionary of Machine Learning, one page per term: definitions, formulas, cross-references,
  citations and pictures, with a PDF of each term and of the whole dictionary.
manifest: adictml.manifest.json
# The authors' own demo scripts, run as they are: each writes its CSVs and a PDF preview beside itself.
demos:
  acc:
    script: pythondemos/acc.py
    kind: plain
    preview: acc.pdf
    csv:
      - {name: acc_data.csv, columns: [x1, x2, label, predicted, correct]}
      - {name: acc_boundary.csv, columns: [x1, x2]}
      - {name: acc_overfit_boundary.csv, columns: [x1, x2]}
  auc:
    script: pythondemos/auc.py
    kind: plain
    preview: auc.pdf
    csv:
      - {name: auc_roc.csv, columns: [fpr, tpr]}
    figures:
      - {name: roc, kind: line, csv: auc_roc.csv, x: fpr, y: tpr, caption: "The ROC curve whose area is the AUC.",
         alt: "ROC curve: true positive rate against false positive rate"}
"""


def prepare(dest, source=SHARED):
    dest = Path(dest)
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(source, dest)
    for path in dest.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    for name, pattern, replacement, why in FIXES:
        path = dest / name
        text, count = re.subn(pattern, replacement, path.read_text(encoding="utf-8"), flags=re.M)
        if not count:
            raise SystemExit(f"{name}: the fix '{why}' found nothing to change; the sources moved")
        path.write_text(text, encoding="utf-8")
        print(f"fixed {name} ({count}x): {why}", file=sys.stderr)
    for name, header in MISSING_DATA.items():
        if not (dest / name).exists():
            (dest / name).write_text(header, encoding="utf-8")
            print(f"added {name} (its header only): not in the shared subset", file=sys.stderr)
    (dest / "dictionary.yaml").write_text(CONFIG, encoding="utf-8")
    return dest / "dictionary.yaml"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if not SHARED.is_dir():
        sys.exit(f"no real dictionary at {SHARED}")
    print(prepare(sys.argv[1]))
