"""A working copy of the real dictionary (../shared/adictml, the Aalto Dictionary of Machine
Learning) with its known mistakes fixed, for `make bench` and for looking at the site it makes.

    python scripts/real_dictionary.py DEST     # prints DEST/dictionary.yaml

The sources are copied as their authors keep them; then, each told on the terminal:
- ADictML_Regulation.tex, term aisystem: \\cite{AIact} -> \\cite{AIAct} (the record's key; the build
  stops on the unknown key otherwise);
- two pgfplots pictures read CSV files that the shared subset of the authors' repository does not hold
  (assets/FMIData1.csv, finland_border.csv, fmi_stations_subset.csv): they get header-only files, so
  those pictures show their axes and labels without the data points;
- the German edition, translations/de/ADictML_Glossary_German.tex (374 entries as kept), so that
  glossary.texdict.read() reads translations/de/ADictML_German.tex:
  - braces, 15 fixes in 13 terms: an entry or description that does not close (FedSGD, regret,
    optimism_in_face_of_uncertainty, featlearn) or opens without its brace (dimred, gradstep), a group
    that closes the entry early or once too often (overfitting, proxop, lime), an unclosed \\gls{...} (ml,
    vfl), a German draft pasted into the English entry's text= (learningtask), a second draft after the
    options (supremum);
  - blank lines inside entries (the authors' rule: the options are not \\long), a whole-file rule over
    71 runs of them: 38 between two paragraphs of prose become \\\\, the other 33 (around an
    environment or display, inside a picture, among the options) are dropped;
  - \\\\ right after \\end{figure} (the authors' rule), 4;
  - \\gls keys that no term has, German or English: 80 keys in 199 calls, each the English key meant
    (\\gls{Datenpunkte} -> datapoint, \\gls{algorithmus} -> algorithm, ...);
  - \\ref/\\eqref to a label that is nowhere, 3: svm's to the German label (..._de), and two sentences
    pointing at a figure only the English entry has (regularization, scatterplot) removed;
  - \\includegraphics paths, 4: relative to this edition's folder, ../../assets/ (as its main file's
    \\input of the macros is), and nullspace's picture in its pythonsnacks/nullspace/ folder;
  - options, 4: plural{...} without '=' (gradient), a missing comma (probability, model, rankdeficient);
    the term samplespace defined twice, word for word: one kept;
  - macros: \\action -> \\arm (10x; undefined, LaTeX stops there: ml_macros.tex renamed it), and
    \\citation (the .aux file's command, which cites nothing) -> \\cite.
  Left as they are, for an edition's reader to accept: \\gls keys only the English dictionary defines
  (the German page links to the English term), type=math that only the English main file declares,
  and \\bibliography{Literature.bib}, which names the English one.
DEST/editions.yaml is the same with the German edition (`editions: de:`).
DEST/dictionary.yaml names the main file and adds what it cannot say: title, address, the authors'
attribution and license, and the demos of the terms acc and auc (the authors' own scripts).
"""
import re
import shutil
import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "adictml"
DE = "translations/de/ADictML_Glossary_German.tex"
# (file, pattern, replacement, why): each must change something, or the sources moved.
FIXES = [
    ("ADictML_Regulation.tex", r"\\cite\{AIact\}", r"\\cite{AIAct}", "the cited record's key is AIAct"),
    # The German edition: braces that close an entry too early or not at all.
    (DE, r"(text=\{FedSGD\})\n", r"\1\n}\n", "term FedSGD: the entry's closing brace is missing"),
    (DE, r"description= Dimensionalitätsreduktion", r"description={Dimensionalitätsreduktion",
     "term dimred: the description's opening brace is missing"),
    (DE, r"\\gls\{hypothesis aus", r"\\gls{hypothesis} aus", "term ml: \\gls{hypothesis is not closed"),
    (DE, r"\\glspl\{features und", r"\\glspl{feature} und",
     "term ml: \\glspl{features is not closed (the key is feature)"),
    (DE, r"\\gls\{dataset ist", r"\\gls{dataset} ist", "term vfl: \\gls{dataset is not closed"),
    (DE, r"\\caption\{\{Zur Erklärung", r"\\caption{Zur Erklärung",
     "term lime: the caption opens two braces, closes one"),
    (DE, r"description= Gegeben sei", r"description={Gegeben sei",
     "term gradstep: the description's opening brace is missing"),
    (DE, r"text=\{proximal operator\}\}", r"text={proximal operator}", "term proxop: one closing brace too many"),
    (DE, r"\{name=\{Überanpassung\}\},", r"{name={Überanpassung},",
     "term overfitting: the name's brace closes the entry"),
    (DE, r"text=Überanpassung\}\s*\}", r"text={Überanpassung}\n}", "term overfitting: one closing brace too many"),
    (DE, r"(text=\{Optimismus im Angesicht der Unsicherheit\}) *\n",  r"\1\n}\n",
     "term optimism_in_face_of_uncertainty: the entry's closing brace is missing"),
    (DE, r"(first=\{Regret\},text=\{Regret\})\n", r"\1\n}\n", "term regret: the entry's closing brace is missing"),
    (DE, r"\$\$ *\n\s*\\\\ *\n\s*\n(\s*first=\{Merkmalslernen\})", r"$$},\n\1",
     "term featlearn: the description does not close (a \\\\ after the display formula instead)"),
    (DE, r"(?s)\{Consider\\index\{learning task\}.*?text=\{\{name=\{Lernaufgabe\},description=\n",
     "", "term learningtask: the German description was pasted into text={ of the English one; keep the German"),
    (DE, r"(?s)(plural= \{Suprema\})\n\s*\n\s*Formaler ausgedrückt.*?\ntext=\{Supremum\}\n(\})", r"\1\n\2",
     "term supremum: a second draft of the description and the options again after the entry's options"),
    # Other mistakes of the German edition.
    (DE, r"(\\end\{figure\})[ \t]*(?:\n[ \t]*)?\\\\[ \t]*", r"\1",
     "\\\\ right after \\end{figure}: the authors' rule (LaTeX stops at 'There's no line here to end')"),
    (DE, r"(\\includegraphics(?:\[[^]]*\])?\{)assets/", r"\1../../assets/",
     "a picture's path is relative to the English main file's folder, not to this edition's (as its "
     "\\input of ../../assets/ml_macros.tex is)"),
    (DE, r"(\{\.\./\.\./assets/pythonsnacks/)(nullspace_0_1\.png\})", r"\1nullspace/\2",
     "term nullspace: the picture lies in pythonsnacks/nullspace/"),
    (DE, r"\\eqref\{equ_hinge_loss_gls_dict\}", r"\\eqref{equ_hinge_loss_gls_dict_de}",
     "term svm: the German hinge loss equation's label ends in _de"),
    (DE, r"  Abbildung \\ref\{fig_equiv_dataaug_penal_dict\} illustriert diese drei Ansätze der "
     r"Regularisierung\. \n", "",
     "term regularization: the sentence pointing at a figure only the English entry has"),
    (DE, r"\t\tFig\. \\ref\{fig_scatterplot_temp_FMI_dict\} zeigt ein Beispiel für ein Streudiagramm\.  \n", "",
     "term scatterplot: the sentence pointing at a figure only the English entry has"),
    (DE, r"plural\{Gradienten\}", "plural={Gradienten}", "term gradient: plural{...} lacks its '='"),
    (DE, r"(text=\{Wahrscheinlichkeit\})\n(\s*plural=\{Wahrscheinlichkeiten\})", r"\1,\n\2",
     "term probability: a comma is missing between text= and plural="),
    (DE, r"(text=\{Modell\})\.\n(user1=)", r"\1,\n\2", "term model: a full stop instead of the comma before user1="),
    (DE, r"(text=\{rangdefizient\})\n(\s*)plural= *\n", r"\1,\n\2plural={rangdefizient}\n",
     "term rankdeficient: a comma is missing before plural=, which is empty (the adjective's plural is itself)"),
    (DE, r"\\citation\{Thomas2013LineareAlgebra\}", r"\\cite{Thomas2013LineareAlgebra}",
     "term dimension: \\citation (the .aux file's command) instead of \\cite"),
    (DE, r"\\action(?![A-Za-z])", r"\\arm",
     "the macro of a bandit's arm is \\arm (assets/ml_macros.tex: beamer has \\action); \\action is undefined"),
    (DE, r"(?s)(\\newglossaryentry\{samplespace\}\n.*?\n\}\n)\s*\\newglossaryentry\{samplespace\}\n.*?\n\}\n",
     r"\1", "term samplespace is defined twice, the same twice: keep one"),
]
# \\gls keys of the German edition that no term has, German or English: the English key meant.
GLS_KEYS = {
    "Vektorraums": "vectorspace", "linearunabhaengig": "linearlyindep", "Vektor": "vector", "Matrix": "matrix",
    "gdmethods": "gdmethod", "minimalen": "minimum", "vollerang": "fullrank", "Rang": "rank",
    "Verallgemeinerung": "generalization", "konvexe": "convex", "parameters": "parameter", "neighbors": "neighbor",
    "modelle": "model", "algorithmus": "algorithm", "modelparams": "modelparam", "stochastischer": "stochastic",
    "Algorithmus": "algorithm", "stochastischen": "stochastic", "Label": "label", "Datenpunkts": "datapoint",
    "ML": "ml", "modell": "model", "wahrscheinlichkeit": "probability", "ANN": "ann", "Modell": "model",
    "Hypothese": "hypothesis", "Loss": "loss", "Testset": "testset", "Daten": "data", "Modells": "model",
    "Probmodell": "probmodel", "Risk": "risk", "Hypothesenraum": "hypospace", "Bayesrisk": "bayesrisk",
    "Bayesestimator": "bayesestimator", "Features": "feature", "Lossfunktion": "lossfunc", "MVNDist": "mvndist",
    "features": "feature", "SQErrLoss": "sqerrloss", "Labels": "label", "Klassifikation": "classification",
    "DeepNet": "deepnet", "Graph": "graph", "Clustering": "clustering", "Datenpunkten": "datapoint",
    "Graphen": "graph", "Kantengewicht": "edgeweight", "GraphClustering": "graphclustering",
    "Datenpunkte": "datapoint", "Eigenvektoren": "eigenvector", "Featurevektoren": "featurevec",
    "Datenpunkt": "datapoint", "Euklidischen Raum": "euclidspace", "KMeans": "kmeans",
    "SoftClustering": "softclustering", "GMM": "gmm", "Cluster": "cluster", "EVD": "evd",
    "Streudiagramm": "scatterplot", "Eigenwert": "eigenvalue", "Featurevektor": "featurevec", "ERM": "erm",
    "Modellparameter": "modelparam", "HardClustering": "hardclustering", "Datensatzes": "dataset",
    "Realisierungen": "realization", "Zufallsvariablen": "rv", "Schätzfehler": "esterr",
    "Wahrscheinlichkeitsverteilung": "probdist", "Norm": "norm", "GTV": "gtv", "RERM": "rerm",
    "Regularisierer": "regularizer", "Labelmenge": "labelspace", "0-1-Verlustfunktion": "zerooneloss",
    "datapointes": "datapoint", "messbare": "measurable", "funktion": "function",
    "interpretierbarkeit": "interpretability",
}
FIXES += [(DE, r"(\\(?:[Gg]ls|GLS)[a-z]*\*?\s*(?:\[[^]]*\])?\s*\{)\s*" + re.escape(wrong) + r"\s*\}",
           rf"\g<1>{right}}}", f"\\gls{{{wrong}}}: no term has this key; the English term meant is {right}")
          for wrong, right in GLS_KEYS.items()]
# Citations of records the bibliography does not hold (the build stops on an unknown key): dropped.
FIXES += [(DE, r"\\cite\{MathematikOnline_HesseMatrix\}", "",
           "term hessian: \\cite{MathematikOnline_HesseMatrix} names no record of Literature.bib; dropped"),
          (DE, r"\s*\\cite\{Kabluchko2017\}", "",
           "term empiricaldistribution: \\cite{Kabluchko2017} names no record of Literature.bib; dropped")]
# The German main file loads fewer TikZ libraries than the English one its pictures were drawn with
# (arrow tips Stealth and Latex, the background layer, fit): those the English main loads, added.
FIXES += [("translations/de/ADictML_German.tex", r"^(\\usetikzlibrary\{positioning\})$",
           r"\1\n\\usetikzlibrary{arrows.meta,fit,backgrounds,intersections,trees,matrix,shapes.misc}",
           "the TikZ libraries of the English main file its pictures use (arrows.meta, backgrounds, fit)")]
FIXES += [("translations/de/ADictML_German.tex", r"^(\\usetikzlibrary\{arrows\.meta,[^}]*\})$",
           r"\1\n\\usepgfplotslibrary{fillbetween,groupplots}\n\\definecolor{darkgreen}{rgb}{0.0, 0.5, 0.0}",
           "the pgfplots libraries and the colour darkgreen the English main file defines for the pictures"),
          (DE, r"(% Gaußsche Verteilung zentriert bei \\gaussiancenter)",
           r"\\pgfmathsetmacro{\\gaussiancenter}{3}\1",
           "term baseline: its picture uses \\gaussiancenter, defined nowhere; 3, as in the English picture"),
          (DE, r"at \(7\.2, 0\.4\*7\.2 \+ 2\.0 - 0\.5\*\(7\.2 - 4\)\)",
           "at (7.2, {0.4*7.2 + 2.0 - 0.5*(7.2 - 4)})",
           "term interpretability: a coordinate whose expression holds parentheses needs braces (TikZ)")]
# Files whose blank lines inside entries go (the authors' rule: the options are not \\long), each
# told with its count: dropped, or a \\\\ where it separates two paragraphs of a description.
BLANK_LINES = [DE]
# A `%` comment (`\%` is none, `\\%` is a line break and then one).
COMMENT = re.compile(r"(\\[\\%])|%.*")
# What decides where a blank line stands: braces (not \{ \}), environments, display formulas.
STRUCTURE = re.compile(r"\\[\\{}]|\\(?:begin|end)\s*\{|\\[][]|\$\$|[{}]")
# What a paragraph of prose does not end with, or begin with: an environment, a display formula, a
# \\ already, an open group.
NOT_PROSE_END = re.compile(r"(\\end\s*\{[^{}]*\}|\\\]|\$\$|\\\\|\{)$")
NOT_PROSE_START = re.compile(r"(\\begin|\\end|\\\[|\$\$|\\\\|\\item\b|\})")
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


def blank_lines(text):
    """The text with each run of blank lines inside an entry (brace depth > 0, or between
    \\newglossaryentry{key} and its options) dropped, or made a \\ line where it separates two
    paragraphs of a description: at its top level (no other group, no environment or display formula
    open) with prose on both sides. Returns (text, dropped, breaks)."""
    lines, out, dropped, breaks = text.split("\n"), [], 0, 0
    depth, envs, display, key_only = 0, 0, False, False
    code = [COMMENT.sub(lambda m: m.group(1) or "", line).strip() for line in lines]
    i = 0
    while i < len(lines):
        if lines[i].strip() or not (depth or key_only):
            for m in STRUCTURE.finditer(code[i]):
                tok = m.group(0)
                if tok in ("{", "}") or tok.endswith("{") and tok.startswith(("\\begin", "\\end")):
                    depth += 1 if tok.endswith("{") else -1
                    envs += tok.startswith("\\begin") - tok.startswith("\\end")
                elif tok in ("\\[", "\\]", "$$"):
                    display = tok == "\\[" or tok == "$$" and not display
            if depth <= 0:
                depth, envs, display = 0, 0, False
            if code[i]:
                key_only = depth == 0 and re.search(r"\\newglossaryentry\s*\{[^{}]*\}$", code[i]) is not None
            out.append(lines[i])
            i += 1
            continue
        j = i
        while j < len(lines) and not lines[j].strip():
            j += 1
        before = next((c for c in reversed(code[:i]) if c), "")
        after = next((c for c in code[j:] if c), "")
        if depth == 2 and not envs and not display and before and after and not NOT_PROSE_END.search(before) \
                and not NOT_PROSE_START.match(after):
            out.append(re.match(r"[ \t]*", lines[j]).group(0) + "\\\\")
            breaks += 1
        else:
            dropped += 1
        i = j
    return "\n".join(out), dropped, breaks

# The German edition: its terms keep the English sections (its main file declares none).
EDITIONS = """\
editions:
  de:
    main: translations/de/ADictML_German.tex
    title: Das Aalto-Wörterbuch des maschinellen Lernens
    description: >-
      Das Aalto-Wörterbuch des maschinellen Lernens, eine Seite je Begriff: Definitionen, Formeln,
      Querverweise, Literatur und Abbildungen, jeder Begriff und das ganze Wörterbuch auch als PDF.
    sections:
      math: Mathematische Werkzeuge
      main: Konzepte des maschinellen Lernens
      reinflearning: Bestärkendes Lernen
      mlsystems: Systeme des maschinellen Lernens
      regulation: Regulierung des maschinellen Lernens
"""

EMPTY_PICTURE = re.compile(r"\\begin\{tikzpicture\}(?:\[[^\]]*\])?\s*(?:%[^\n]*\n\s*)*\\end\{tikzpicture\}")
PICTURE = re.compile(r"\\begin\{tikzpicture\}.*?\\end\{tikzpicture\}", re.S)
ENGLISH = ("ADictML_Math.tex", "ADictML_CoreML.tex", "ADictML_MLSystems.tex", "ADictML_RL.tex",
           "ADictML_Regulation.tex")


def entry_span(text, key):
    """(start, end) of \\newglossaryentry{key} up to the next one, or None."""
    start = text.find("\\newglossaryentry{" + key + "}")
    if start < 0:
        return None
    end = text.find("\\newglossaryentry{", start + 1)
    return start, end if end >= 0 else len(text)


def empty_pictures(dest):
    """The German edition left some pictures empty ('TikZ-Grafik unverändert': unchanged): each gets
    the English term's picture of the same number, told."""
    path = dest / DE
    text = path.read_text(encoding="utf-8")
    english = "".join((dest / name).read_text(encoding="utf-8") for name in ENGLISH)
    found = 0
    for m in list(EMPTY_PICTURE.finditer(text))[::-1]:
        key = re.findall(r"\\newglossaryentry\{([^{}]*)\}", text[:m.start()])[-1]
        start, _ = entry_span(text, key)
        n = text[start:m.start()].count("\\begin{tikzpicture}")
        span = entry_span(english, key)
        pictures = PICTURE.findall(english[span[0]:span[1]]) if span else []
        if n >= len(pictures):
            raise SystemExit(f"{DE}: term {key}: picture {n + 1} is empty and the English term has none to copy")
        text = text[:m.start()] + pictures[n] + text[m.end():]
        found += 1
        print(f"fixed {DE} (1x): term {key}: picture {n + 1} is an empty placeholder; the English term's "
              "picture copied", file=sys.stderr)
    if not found:
        raise SystemExit(f"{DE}: no empty picture left to fill; the sources moved")
    path.write_text(text, encoding="utf-8")


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
    for name in BLANK_LINES:
        path = dest / name
        text, dropped, breaks = blank_lines(path.read_text(encoding="utf-8"))
        if not dropped or not breaks:
            raise SystemExit(f"{name}: the blank lines inside entries are no longer there as they were "
                             f"({dropped} to drop, {breaks} to make \\\\); the sources moved")
        path.write_text(text, encoding="utf-8")
        print(f"fixed {name} ({dropped}x): a blank line inside an entry dropped (its options are not "
              "\\long: LaTeX stops there)", file=sys.stderr)
        print(f"fixed {name} ({breaks}x): a blank line between two paragraphs of a description made "
              "\\\\ (the authors' paragraph break)", file=sys.stderr)
    for name, header in MISSING_DATA.items():
        if not (dest / name).exists():
            (dest / name).write_text(header, encoding="utf-8")
            print(f"added {name} (its header only): not in the shared subset", file=sys.stderr)
    empty_pictures(dest)
    # The German pictures read their data as assets/... from their own folder, as the English ones do
    # from theirs: the edition's copy gets the data files they name.
    for name in sorted({m for m in re.findall(r"\{(assets/[^{}]+\.csv)\}", (dest / DE).read_text(encoding="utf-8"))}):
        if (dest / name).exists() and not (dest / "translations/de" / name).exists():
            (dest / "translations/de" / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(dest / name, dest / "translations/de" / name)
            print(f"added translations/de/{name} (a copy of {name}): the German pictures read it from their folder",
                  file=sys.stderr)
    (dest / "dictionary.yaml").write_text(CONFIG, encoding="utf-8")
    # The same dictionary with its German edition (glossary.editions): de/ of the site.
    (dest / "editions.yaml").write_text(CONFIG.replace("manifest: adictml.manifest.json\n", "") + EDITIONS,
                                        encoding="utf-8")
    return dest / "dictionary.yaml"


if __name__ == "__main__":
    # an option (--help) is not a folder to copy into
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    if not SHARED.is_dir():
        sys.exit(f"no real dictionary at {SHARED}")
    print(prepare(sys.argv[1]))
