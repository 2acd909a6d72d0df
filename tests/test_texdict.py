"""The glossaries-extra reader (glossary.texdict) on the project's own fixture dictionary
(tests/fixtures/texdict/) and on broken copies of it, through real pandoc and real pdflatex (the real
dictionary: checks/test_real_dictionary.py, `make real-check`)."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from glossary import texdict
from glossary.entries import EntryError
from glossary.prose import pandoc
from glossary.readers.latex import environments, graphics

FIXTURE = REPO / "tests" / "fixtures" / "texdict"
MAIN = FIXTURE / "TinyDict_Main.tex"
GLOSSARY_FILES = ["TinyDict_Audit.tex", "TinyDict_Math.tex", "TinyDict_Models.tex", "TinyDict_Numbers.tex",
                  "TinyDict_Forms.tex"]
# The ways of defining a term besides \newglossaryentry, each with its fixture term (TinyDict_Forms.tex).
OTHER_WAYS = {"newacronym": "svm", "newabbreviation": "cnn", "longnewglossaryentry": "regularization",
              "glsxtrnewsymbol": "sgn", "newdualentry": "pca"}


@pytest.fixture(scope="module")
def tiny():
    return texdict.read(MAIN)


@pytest.fixture
def broken(tmp_path):
    """A copy of the fixture, and edit(file, old, new) to break it; returns the copy's main file."""
    root = tmp_path / "dict"
    shutil.copytree(FIXTURE, root)

    def edit(name, old, new, count=1):
        path = root / name
        text = path.read_text()
        assert text.count(old) >= count, f"{old!r} not in {name}"
        path.write_text(text.replace(old, new, count))
        return root / MAIN.name
    edit.root = root
    return edit


def fixture_lines(name):
    return (FIXTURE / name).read_text().split("\n")


def line_of(name, needle, start=1):
    """The 1-based line of the first line from `start` on that contains needle."""
    lines = fixture_lines(name)
    return next(i for i in range(start, len(lines) + 1) if needle in lines[i - 1])


def active_keys():
    """The keys of the fixture's definitions (\\newglossaryentry lines and the other ways) that are not
    commented out."""
    keys = []
    for name in GLOSSARY_FILES:
        keys += re.findall(r"^\\(?:newglossaryentry|longnewglossaryentry|newacronym|newabbreviation|glsxtrnewsymbol"
                           r"|newdualentry)(?:\[[^][]*\])?\{([^}]*)\}", (FIXTURE / name).read_text(), re.M)
    return keys


# ---------------------------------------------------------------- the dictionary's structure


def test_structure_of_the_main_file(tiny):
    assert tiny["main"] == str(MAIN) and tiny["root"] == str(FIXTURE)
    # \printglossary order; the default type takes its title from title=, models from \newglossary*.
    assert tiny["sections"] == [{"id": "math", "title": "Mathematical Tools"},
                                {"id": "main", "title": "Machine Learning Concepts"},
                                {"id": "models", "title": "Models and Training"}]
    assert tiny["glossary_files"] == GLOSSARY_FILES  # \input{TinyDict_Models} without .tex
    assert tiny["macro_files"] == ["assets/notation.tex"]
    assert tiny["bibliography"] == "assets/tiny.bib" and (FIXTURE / tiny["bibliography"]).is_file()
    # Comments go; each leaves its `%`, which keeps TeX's reading of the line end.
    assert tiny["preamble"].startswith("%\n\\documentclass") and not re.search("%[^\n]", tiny["preamble"])
    assert "\\begin{document}" not in tiny["preamble"] and "retired" not in tiny["preamble"]


def test_every_active_entry_is_read_by_slug_in_order(tiny):
    keys = active_keys()
    assert "tensor" not in keys and len(keys) == 25  # the commented-out entry is no entry
    assert sorted(e["key"] for e in tiny["entries"].values()) == sorted(keys)
    assert list(tiny["entries"]) == sorted(tiny["entries"])
    assert tiny["entries"]["loss-function"]["key"] == "loss function"
    for slug, entry in tiny["entries"].items():
        assert entry["slug"] == slug and entry["format"] == "latex" and entry["summary"] is None
        if slug in OTHER_WAYS.values():
            continue    # test_every_way_of_defining_a_term_reads_into_the_same_model
        assert fixture_lines(entry["path"])[entry["line"] - 1] == f"\\newglossaryentry{{{entry['key']}}}"
        assert "description={" in fixture_lines(entry["path"])[entry["body_line"] - 1]


def test_fields_and_glossaries_default_forms(tiny):
    loss = tiny["entries"]["loss-function"]
    assert (loss["title"], loss["section"], loss["path"]) == ("loss function", "models", "TinyDict_Models.tex")
    # Given text=, first=, plural=; firstplural defaults to first + "s" as glossaries does.
    assert loss["forms"] == {"text": "loss", "first": "loss function (loss)", "plural": "losses",
                             "firstplural": "loss function (loss)s"}
    # Only plural= given: first defaults to text, firstplural to plural.
    assert tiny["entries"]["matrix"]["forms"] == {"text": "matrix", "first": "matrix", "plural": "matrices",
                                                  "firstplural": "matrices"}
    assert tiny["entries"]["dataset"]["forms"]["plural"] == "datasets"
    assert tiny["entries"]["feature"]["section"] == "main"  # no type=: glossaries' default type


MARKS = re.compile("(" + re.escape(environments.MINIPAGE_MARK) + "|" + re.escape(environments.CAPTION_MARK)
                   + r")\{[^{}]*\}")


def test_body_lines_are_the_file_lines(tiny):
    """Body line i is file line body_line + i: each kept line appears on its file line."""
    checked = 0
    for entry in tiny["entries"].values():
        lines = fixture_lines(entry["path"])
        for i, line in enumerate(entry["body"].split("\n")):
            line = MARKS.sub("", line)          # a minipage's width, a \caption*: marks for the later passes
            if line.strip() and "{picture:" not in line and "{graphic:" not in line and "\\par" not in line:
                assert line.strip() in lines[entry["body_line"] - 1 + i], (entry["slug"], i)
                checked += 1
    assert checked > 80


def test_pictures_become_placeholders_on_their_lines(tiny):
    gd = tiny["entries"]["gd"]
    [picture] = gd["pictures"]
    begin = line_of("TinyDict_Models.tex", "\\begin{tikzpicture}", gd["line"])
    assert picture["n"] == 1 and picture["line"] == begin
    assert picture["tex"].startswith("\\begin{tikzpicture}[scale=0.8]")
    assert picture["tex"].endswith("\\end{tikzpicture}") and "\\glspl{loss function}" in picture["tex"]
    body = gd["body"].split("\n")
    assert body[begin - gd["body_line"]].strip() == "\\includegraphics{picture:1}"
    assert "tikzpicture" not in gd["body"] and "\\caption{Three steps" in gd["body"]
    assert "\\label{fig:gd-steps}" in gd["body"] and "\\begin{figure}[H]" in gd["body"]
    fits = tiny["entries"]["overfitting"]
    assert [p["n"] for p in fits["pictures"]] == [1, 2, 3]
    assert fits["body"].count("\\begin{subfigure}") == 3
    assert "\\includegraphics{picture:2}" in fits["body"]
    assert "\\begin{axis}" in tiny["entries"]["trainingerror"]["pictures"][0]["tex"]
    assert tiny["entries"]["model"]["body"].count("\\begin{minipage}") == 2


def test_graphics_are_resolved_files(tiny):
    point = tiny["entries"]["datapoint"]
    line = line_of("TinyDict_Models.tex", "\\includegraphics[width=0.3\\textwidth]{assets/tiny}")
    assert point["graphics"] == [{"n": 1, "path": "assets/tiny.png", "line": line}]
    assert (FIXTURE / "assets/tiny.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # its width, a share of the line, is kept for the page and print
    assert "\\includegraphics[width=0.3\\textwidth]{graphic:1}" in point["body"]


@pytest.mark.parametrize("options, share", [
    ("[width=0.8\\textwidth]", "0.8"), ("[width=\\linewidth]", "1"),
    ("[ width = .45\\columnwidth, height=3cm]", "0.45"), ("[width=2cm]", None), ("[scale=0.5]", None), ("", None)])
def test_a_graphic_keeps_a_width_given_as_a_share_of_the_line(options, share):
    assert graphics.line_share(options) == share


def test_paragraphs_index_and_see_also(tiny):
    gradient = tiny["entries"]["gradient"]
    # The two top-level \\ lines become blank lines; the second one opened the See-also paragraph.
    assert gradient["body"].count("\n\n") == 1 and "\\\\" not in gradient["body"]
    assert gradient["see_also"] == ["gd", "learningrate"]
    # \\index stays where the authors put it, for the book's Index (test_book.py)
    assert "A vector\\index{vector} is an ordered list" in tiny["entries"]["vector"]["body"]
    assert all("See also" not in e["body"] for e in tiny["entries"].values())
    assert tiny["entries"]["trainingerror"]["see_also"] == ["overfitting", "loss-function"]
    # \\ inside align and inside a minipage are line breaks there, not paragraphs.
    assert "x_{2}, \\label{eq:matrix-row-one} \\\\" in tiny["entries"]["matrix"]["body"]
    assert "A linear model: \\\\" in tiny["entries"]["model"]["body"]
    assert "100\\%" in tiny["entries"]["vector"]["body"]  # an escaped % is no comment
    # A \\ in the middle of a line becomes \par: a blank line would shift the lines after it.
    function = tiny["entries"]["function"]["body"]
    assert function.endswith("\\rightarrow \\mathcal{Y}$. \\par A \\gls{model} is a set of them.")
    # \gls keys stay as written, also inside \text{} in math.
    assert "\\text{(one \\gls{vector} entry per \\gls{parameter})}" in gradient["body"]


def test_labels_numbered_per_term(tiny):
    labels = tiny["labels"]
    assert list(labels) == sorted(labels)
    assert labels["eq:gradient"] == {"slug": "gradient", "kind": "equation", "number": 1}
    assert labels["eq:matrix-row-one"] == {"slug": "matrix", "kind": "equation", "number": 1}
    assert labels["fig:gd-steps"] == {"slug": "gd", "kind": "figure", "number": 1}
    # Labels of subfigures name their figure's number.
    assert {labels[f"fig:overfitting-{x}"]["number"] for x in ("line", "curve", "box", "fits")} == {1}
    defined = set()
    for name in GLOSSARY_FILES:
        defined |= set(re.findall(r"\\label\{([^}]*)\}", (FIXTURE / name).read_text()))
    assert set(labels) == defined


def test_unknown_constructs_are_counted(tiny):
    line = line_of("TinyDict_Math.tex", "${\\rm d} f / {\\rm d} w$")
    assert tiny["unknown"] == [{"construct": "\\rm", "count": 2, "first": f"TinyDict_Math.tex:{line}"}]


def test_reading_is_deterministic(tiny):
    again = texdict.read(MAIN)
    assert json.dumps(again, sort_keys=False) == json.dumps(tiny, sort_keys=False)


def test_pandoc_reads_every_body(tiny):
    """The normalised bodies are LaTeX pandoc's reader takes: a blank line is a new paragraph."""
    bodies = "\n\n\\begin{center}SEPARATOR\\end{center}\n\n".join(
        tiny["entries"][s]["body"] for s in ("gradient", "model"))
    run = subprocess.run([pandoc(), "-f", "latex", "-t", "json"], input=bodies.encode(), capture_output=True,
                         check=True)
    blocks = json.loads(run.stdout)["blocks"]
    cut = next(i for i, b in enumerate(blocks) if b["t"] == "Div")
    gradient = [b["t"] for b in blocks[:cut]]
    assert gradient.count("Para") == 2  # the text before and after the \\ that became a blank line
    assert "DisplayMath" in json.dumps(blocks[:cut])


# ---------------------------------------------------------------- mistakes


def message(main):
    """The one mistake's message without its column (file:line:column: -> file:line:), which these
    tests do not assert (tests/test_mistakes.py does)."""
    with pytest.raises(EntryError) as err:
        texdict.read(main)
    return re.sub(r"(?m)^([^:\n]+:\d+):\d+: ", r"\1: ", str(err.value))


def test_blank_line_inside_an_entry(broken):
    main = broken("TinyDict_Math.tex", "columns. Multiplying", "columns.\n\n\t\tMultiplying")
    line = line_of("TinyDict_Math.tex", "columns. Multiplying") + 1
    text = message(main)
    assert text.startswith(f"TinyDict_Math.tex:{line}: term 'matrix': blank line inside the entry")
    assert "separate paragraphs with \\\\" in text


def test_braces_that_do_not_close(broken):
    main = broken("TinyDict_Math.tex", "\\gls{vector} $\\featurevec$\n", "\\gls{vector $\\featurevec$\n")
    start = line_of("TinyDict_Math.tex", "\\newglossaryentry{matrix}")
    at = line_of("TinyDict_Math.tex", "\\gls{vector} $\\featurevec$", start)
    text = message(main)
    # told where the '}' most likely went missing: the \gls group that runs over lines, not the entry's start
    assert text.startswith(f"TinyDict_Math.tex:{at}: term 'matrix': the braces of this entry do not close")
    assert f"the entry starts on line {start}" in text and "close the \\gls{...} opened here" in text


def test_braces_that_close_too_early(broken):
    main = broken("TinyDict_Models.tex", "a photo is a typical example", "a photo} is a typical example")
    text = message(main)
    assert "term 'datapoint'" in text and "remove the stray '}'" in text


def test_braces_of_the_last_entry_that_close_too_early(broken):
    main = broken("TinyDict_Models.tex", "over the training \\gls{dataset};", "over the training} \\gls{dataset};")
    start = line_of("TinyDict_Models.tex", "\\newglossaryentry{trainingerror}")
    end = line_of("TinyDict_Models.tex", "See also: \\gls{overfitting}, \\gls{loss function}")
    text = message(main)
    assert text.startswith(f"TinyDict_Models.tex:{end}: term 'trainingerror': text after the entry's closing brace")
    assert f"remove the stray '}}' between line {start}, where the entry starts, and here" in text


def test_key_defined_twice(broken):
    main = broken("TinyDict_Models.tex", "\\newglossaryentry{dataset}", "\\newglossaryentry{vector}")
    first = line_of("TinyDict_Math.tex", "\\newglossaryentry{vector}")
    second = line_of("TinyDict_Models.tex", "\\newglossaryentry{dataset}")
    # the file no longer defines 'dataset': the report also tells each \\gls{dataset} (tests/test_mistakes.py)
    assert (f"TinyDict_Models.tex:{second}: term 'vector' is defined twice (also at "
            f"TinyDict_Math.tex:{first}); keep one definition or rename one key") in message(main).splitlines()


def test_type_without_a_glossary(broken):
    # 'retired' is declared only in a commented-out line, which LaTeX does not see either.
    main = broken("TinyDict_Math.tex", "\ttype=math,\n\tplural", "\ttype=retired,\n\tplural")
    line = line_of("TinyDict_Math.tex", "plural={matrices}") - 1
    text = message(main)
    assert text.startswith(f"TinyDict_Math.tex:{line}: term 'matrix': type=retired names no glossary")
    assert "\\newglossary*{retired}{Title}" in text and "main, math, models, symbols, unused" in text


def test_undefined_gls_key_suggests_the_closest(broken):
    main = broken("TinyDict_Models.tex", "\\gls{learningrate}\\index", "\\gls{learningrat}\\index")
    line = line_of("TinyDict_Models.tex", "\\gls{learningrate}\\index")
    assert message(main) == (f"TinyDict_Models.tex:{line}: term 'learningrate': \\gls key 'learningrat' is "
                             "not defined; did you mean learningrate?")


def test_undefined_key_inside_a_picture(broken):
    main = broken("TinyDict_Models.tex", "{\\glspl{loss function}}", "{\\glspl{loss functions}}")
    assert "\\gls key 'loss functions' is not defined; did you mean loss function" in message(main)


def test_ref_to_a_label_nowhere(broken):
    main = broken("TinyDict_Models.tex", "iterates of Fig.~\\ref{fig:gd-steps}", "iterates of Fig.~\\ref{fig:gd-step}")
    line = line_of("TinyDict_Models.tex", "iterates of Fig.~\\ref{fig:gd-steps}")
    assert message(main) == (f"TinyDict_Models.tex:{line}: term 'learningrate': \\ref{{fig:gd-step}} names a "
                             "label that no entry defines; did you mean fig:gd-steps?")


def test_missing_input_file(broken):
    main = broken("TinyDict_Main.tex", "\\input{TinyDict_Models}", "\\input{TinyDict_Model}")
    line = line_of("TinyDict_Main.tex", "\\input{TinyDict_Models}")
    text = message(main)
    assert text.startswith(f"TinyDict_Main.tex:{line}: \\input{{TinyDict_Model}}: no such file")


def test_two_keys_with_one_slug(broken):
    main = broken("TinyDict_Models.tex", "\\newglossaryentry{dataset}", "\\newglossaryentry{Loss_Function}")
    text = message(main)
    assert "term 'loss function' and term 'Loss_Function'" in text or \
        "term 'Loss_Function' and term 'loss function'" in text
    assert "have one slug 'loss-function'; rename one key" in text


def test_label_defined_twice(broken):
    main = broken("TinyDict_Models.tex", "\\label{fig:model-arrow}", "\\label{fig:gd-steps}")
    assert "\\label{fig:gd-steps} is defined twice" in message(main)


def test_break_right_after_a_figure(broken):
    main = broken("TinyDict_Models.tex", "\\end{figure}\n\t\tSee also: \\gls{feature}",
                  "\\end{figure}\n\t\t\\\\\n\t\tSee also: \\gls{feature}")
    assert "term 'datapoint': \\\\ right after \\end{figure}" in message(main)


def test_missing_graphic(broken):
    main = broken("TinyDict_Models.tex", "{assets/tiny}", "{assets/tinny}")
    assert "\\includegraphics{assets/tinny}: no such file" in message(main)


# ---------------------------------------------------------------- the source config


def test_load_a_yaml_source():
    d = texdict.load(FIXTURE / "dictionary.yaml")
    assert d["entries"] == texdict.read(MAIN)["entries"]
    config = d["config"]
    assert config["main"] == str(Path("tests/fixtures/texdict/TinyDict_Main.tex")) or \
        Path(config["main"]).resolve() == MAIN.resolve()
    assert config["title"] == "A Tiny Dictionary of Machine Learning" and config["license"] == "CC-BY-4.0"
    assert config["demos"] == {"gd": {"script": str(FIXTURE / "demos" / "gd_demo.py"), "kind": "plain"}}
    assert texdict.load(MAIN)["config"] == {"main": str(MAIN), "demos": {}}


@pytest.mark.parametrize("old,new,expected", [
    ("manifest:", "manifets:", "manifets: unknown field 'manifets'; did you mean 'manifest'?"),
    ("kind: plain", "kind: notebook", "demos.gd.kind: 'notebook' is not one of ['plain', 'blocks']"),
    ("main: TinyDict_Main.tex", "main: Tiny_Main.tex", "main: 'Tiny_Main.tex' is not a file"),
    ("demos/gd_demo.py", "demos/gd.py", "demos.gd.script: 'demos/gd.py' is not a file"),
    ("  gd: {", "  gdd: {", "demos.gdd: no term has the key 'gdd'; did you mean gd?"),
    ("title: A Tiny", "title: A Tiny\ntitle: Again", "field 'title' is given twice"),
])
def test_config_mistakes(broken, old, new, expected):
    broken("dictionary.yaml", old, new)
    with pytest.raises(EntryError) as err:
        texdict.load(broken.root / "dictionary.yaml")
    assert str(err.value).startswith(str(broken.root / "dictionary.yaml"))
    assert expected in str(err.value)


# ---------------------------------------------------------------- real pdflatex, the real dictionary


def pdflatex(main):
    return subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", main.name],
                          cwd=main.parent, capture_output=True, text=True)


def test_forms_are_the_ones_glossaries_gives(tiny, tmp_path):
    """Each entry's forms as glossaries-extra itself fills them in (\\glsentryfirstplural ...)."""
    keys = sorted(e["key"] for e in tiny["entries"].values())
    rows = "\n".join(f"\\noindent {k};\\glsentrytext{{{k}}};\\glsentryfirst{{{k}}};\\glsentryplural{{{k}}};"
                     f"\\glsentryfirstplural{{{k}}}\\par" for k in keys)
    doc = tmp_path / "forms.tex"
    # A page wide enough that no row wraps (an abbreviation's first plural is long).
    doc.write_text("\\documentclass{article}\\usepackage[paperwidth=60cm]{geometry}\\usepackage{amsmath}"
                   "\\usepackage[symbols]{glossaries-extra}\n"
                   "\\newglossary*{math}{M}\\newglossary*{models}{T}\n"
                   "\\newcommand*{\\newdualentry}[5][]{\\newabbreviation[description={#5},#1]{#2}{#3}{#4}}\n"
                   + "".join(f"\\input{{{FIXTURE / n}}}\n" for n in ["assets/notation.tex", *GLOSSARY_FILES])
                   + "\\pagestyle{empty}\\begin{document}\\raggedright\n" + rows + "\n\\end{document}\n")
    assert pdflatex(doc).returncode == 0
    text = subprocess.run(["pdftotext", "-layout", "forms.pdf", "-"], cwd=tmp_path, capture_output=True,
                          text=True, check=True).stdout
    printed = [line.strip().split(";") for line in text.splitlines() if ";" in line]
    expected = [[e["key"], *(e["forms"][f] for f in ("text", "first", "plural", "firstplural"))]
                for e in sorted(tiny["entries"].values(), key=lambda e: e["key"])]
    assert printed == expected


def test_the_fixture_is_a_dictionary_pdflatex_builds_and_its_rules_are_latexs(broken):
    """The fixture compiles; a blank line inside an entry stops pdflatex as it stops the reader."""
    main = broken.root / MAIN.name
    assert pdflatex(main).returncode == 0
    assert (broken.root / "TinyDict_Main.pdf").stat().st_size > 10000
    broken("TinyDict_Math.tex", "columns. Multiplying", "columns.\n\n\t\tMultiplying")
    run = pdflatex(main)
    assert run.returncode != 0 and "Paragraph ended before" in run.stdout
    with pytest.raises(EntryError):
        texdict.read(main)


def test_the_books_own_bookkeeping_is_read_not_shown(broken):
    """\\refstepcounter and \\definecolor go, \\thetable is the table's number in the term, and
    \\scalebox keeps its content (the real dictionary's relational model and decision tree)."""
    main = broken("TinyDict_Models.tex", "\\featurevec^{(\\samplesize)}$.},",
                  "\\featurevec^{(\\samplesize)}$ (Table~\\ref{tab:rows}).\n"
                  "\t\t\\definecolor{darkgreen}{rgb}{0.0, 0.5, 0.0}\n"
                  "\t\t\\begin{table}[H]\\refstepcounter{table}\n"
                  "\t\t\\caption*{TABLE \\thetable: the rows}\\label{tab:rows}\n"
                  "\t\t\\scalebox{0.8}{\\begin{tabular}{lc} a & 1 \\\\ \\end{tabular}}\n"
                  "\t\t\\end{table}},")
    read = texdict.read(main)
    body = read["entries"]["dataset"]["body"]
    # the table's only caption, unnumbered (environments.caption_star; tests/test_reading.py shows it)
    assert f"\\caption{{{environments.CAPTION_MARK}{{unnumbered}}TABLE 1: the rows}}" in body
    assert "{\\begin{tabular}{lc} a & 1" in body
    for gone in ("\\refstepcounter", "\\definecolor", "\\thetable", "\\scalebox", "darkgreen", "0.8"):
        assert gone not in body
    assert read["labels"]["tab:rows"] == {"slug": "dataset", "kind": "table", "number": 1}
    assert {u["construct"] for u in read["unknown"]} == {"\\rm"}   # the fixture's own, as before


def test_an_empty_picture_is_told_with_its_term(broken):
    main = broken("TinyDict_Models.tex", "\\begin{tikzpicture}[scale=0.8]\n",
                  "\\begin{tikzpicture}[scale=0.8]\n% (the picture, unchanged)\n\\end{tikzpicture}\n"
                  "\\begin{tikzpicture}[scale=0.8]\n")
    line = line_of("TinyDict_Models.tex", "\\begin{tikzpicture}[scale=0.8]")
    assert message(main) == (f"TinyDict_Models.tex:{line}: term 'gd': picture 1 draws nothing (an empty tikzpicture); "
                             "draw it or remove the figure")


# ---------------------------------------------------------------- every way of defining a term

# TinyDict_Forms.tex's five terms written with \newglossaryentry (the file says how).
AS_ENTRIES = (FIXTURE / "TinyDict_Forms_twins.tex").read_text()
PLACE = ("path", "line", "body_line")


def test_every_way_of_defining_a_term_reads_into_the_same_model(tiny, broken):
    text = (FIXTURE / "TinyDict_Forms.tex").read_text()
    for command, key in OTHER_WAYS.items():
        assert re.search(rf"^\\{command}(\[[^][]*\])?\{{{key}\}}", text, re.M), f"no \\{command} term {key}"
    (broken.root / "TinyDict_Forms.tex").write_text(AS_ENTRIES)
    same = texdict.read(broken.root / MAIN.name)
    for key in OTHER_WAYS.values():
        one, other = tiny["entries"][key], same["entries"][key]
        assert {k: v for k, v in one.items() if k not in PLACE} == {k: v for k, v in other.items() if k not in PLACE}
    assert tiny["entries"]["cnn"]["forms"]["short"] == "CNN" and tiny["entries"]["sgn"]["section"] == "math"


def test_a_term_defined_another_way_builds_the_same_page(tmp_path):
    """The fixture built as it is and with TinyDict_Forms.tex's terms as \\newglossaryentry: each of
    the five pages (and the abbreviations page) the same bytes."""
    pages = {}
    for name, forms in (("ways", None), ("entries", AS_ENTRIES)):
        root = tmp_path / name
        shutil.copytree(FIXTURE, root)
        if forms:
            (root / "TinyDict_Forms.tex").write_text(forms)
        run = subprocess.run([sys.executable, "-m", "glossary.build", "--cores", "2", "--source",
                              str(root / MAIN.name), "--out", str(tmp_path / f"out-{name}")], cwd=REPO,
                             env=dict(os.environ, PYTHONPATH=str(REPO / "src")), capture_output=True, text=True,
                             timeout=900)
        assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
        site = tmp_path / f"out-{name}" / "site"
        pages[name] = {p: (site / p).read_bytes() for p in
                       [f"terms/{key}.html" for key in OTHER_WAYS.values()] + ["abbreviations.html"]}
    for page in pages["ways"]:
        assert pages["ways"][page] == pages["entries"][page], page


def test_a_minipage_width_is_a_share_of_the_line_or_none():
    assert [environments.minipage_width(w) for w in ("0.95\\textwidth", ".45\\textwidth", " \\linewidth ",
                                                     "0.45\\columnwidth", "5cm", "1.5\\textwidth", ".\\textwidth")] \
        == ["0.95", "0.45", "1", "0.45", None, None, None]


def test_a_kept_read_is_taken_under_its_own_key_alone(tmp_path):
    """check_main's memo (the driver's read, kept for the build's plan): the same key gives the kept
    read without reading the files again, another key reads them, and a read with a mistake is not kept."""
    root = tmp_path / "dict"
    shutil.copytree(FIXTURE, root)
    main, memo = root / MAIN.name, tmp_path / "read.pickle"
    first, mistakes = texdict.check_main(main, memo=(memo, "one"))
    assert not mistakes and memo.is_file()
    models = root / "TinyDict_Models.tex"
    models.write_text(models.read_text().replace("name={data point}", "name={data sample}", 1))
    kept, mistakes = texdict.check_main(main, memo=(memo, "one"))
    assert not mistakes and kept["entries"]["datapoint"]["title"] == "data point"
    assert kept["entries"] == first["entries"]
    fresh, mistakes = texdict.check_main(main, memo=(memo, "two"))
    assert not mistakes and fresh["entries"]["datapoint"]["title"] == "data sample"
    # an unsaved buffer is never served from (nor kept in) the memo
    overlay = {str(models): models.read_text().replace("name={data sample}", "name={data item}", 1)}
    unsaved = texdict.check_main(main, overlay=overlay, memo=(memo, "two"))[0]
    assert unsaved["entries"]["datapoint"]["title"] == "data item"
    models.write_text(models.read_text() + "\n\\newglossaryentry{datapoint}{name={again},description={twice}}\n")
    told = texdict.check_main(main, memo=(memo, "three"))[1]
    assert any("defined twice" in m.what for m in told)
    assert texdict.remembered((memo, "three"), main) is None
    assert texdict.remembered((memo, "two"), main)["entries"]["datapoint"]["title"] == "data sample"
    # the key is also the main file as named (the read names it so)
    assert texdict.remembered((memo, "two"), os.path.relpath(main)) is None
    # a source changed while it was read (the key taken anew differs): the read is not kept
    twice = "\n\\newglossaryentry{datapoint}{name={again},description={twice}}\n"
    models.write_text(models.read_text().replace(twice, ""))
    assert not texdict.check_main(main, memo=(memo, "five", lambda: "six"))[1]
    assert texdict.remembered((memo, "five"), main) is None
    assert texdict.check_main(main, memo=(memo, "five", lambda: "five"))[1] == []
    assert texdict.remembered((memo, "five"), main)["entries"]["datapoint"]["title"] == "data sample"
    memo.write_bytes(b"not a pickle of ours")
    assert texdict.remembered((memo, "five"), main) is None


def test_a_build_reads_again_only_the_terms_that_changed(tmp_path, monkeypatch):
    """texdict.Kept (beside check_main's memo): a later read of the dictionary scans only the terms whose
    text or place changed, and gives what reading every term gives; a term whose graphic's file has gone
    is read again (its mistake told), and a kept term's file that defines a term twice tells it."""
    root = tmp_path / "dict"
    shutil.copytree(FIXTURE, root)
    main, memo = root / MAIN.name, tmp_path / "read.pickle"
    scanned = []
    scan = texdict.Body.scan
    monkeypatch.setattr(texdict.Body, "scan", lambda body: scanned.append(body.key) or scan(body))
    first, mistakes = texdict.check_main(main, memo=(memo, "one"))
    assert not mistakes and (tmp_path / texdict.ENTRY_MEMO).is_file()
    assert len(scanned) == len(first["entries"])
    # one word of the last term of a file: that term alone is read again
    math = root / "TinyDict_Math.tex"
    last = list(texdict.glossaries.entries_of(texdict.lexer.Source(math, math.name)))[-1][0]
    text = math.read_text()
    at = text.rindex("description={") + len("description={")
    math.write_text(text[:at] + "An edited one. " + text[at:])
    scanned.clear()
    again, mistakes = texdict.check_main(main, memo=(memo, "two"))
    assert not mistakes and scanned == [last]
    assert again == texdict.read(main) and again != first
    # nothing changed: nothing is read
    scanned.clear()
    assert texdict.check_main(main, memo=(memo, "three")) == (again, []) and scanned == []
    # the file a kept term's graphic names is gone: that term is read again, and its mistake told
    (root / "assets" / "tiny.png").unlink()
    scanned.clear()
    told = texdict.check_main(main, memo=(memo, "four"))[1]
    assert scanned == ["datapoint"]
    assert [(m.file, m.kind) for m in told] == [("TinyDict_Models.tex", "missing-file")]
    # a kept term defined again in another file: told, as a read of every term tells it
    shutil.copy(FIXTURE / "assets" / "tiny.png", root / "assets" / "tiny.png")
    numbers = root / "TinyDict_Numbers.tex"
    numbers.write_text(numbers.read_text() + "\n\\newglossaryentry{datapoint}{name={again},description={twice}}\n")
    told = texdict.check_main(main, memo=(memo, "five"))[1]
    assert [m.kind for m in told] == ["duplicate-key"] and told == texdict.check_main(main)[1]


def test_kept_models_are_the_models_of_the_read_as_it_is(tmp_path):
    """dictionary.kept_models: each term's model kept under what it is made of; a later read models again
    only the terms that changed, and gives what modelling every term gives."""
    import pickle

    from glossary import dictionary
    root = tmp_path / "dict"
    shutil.copytree(FIXTURE, root)
    main, kept = root / MAIN.name, tmp_path / "models.pickle"

    def both():
        """The entries modelled every one, then with the kept models."""
        read, book = texdict.read(main), dict.fromkeys(dictionary.BOOK_FIELDS)
        return (dictionary.from_source(read, {}, book)["entries"],
                dictionary.from_source(read, {}, book, models=kept)["entries"])

    whole, first = both()
    assert first == whole and len(pickle.loads(kept.read_bytes())[1]) == len(whole)
    models = root / "TinyDict_Models.tex"
    models.write_text(models.read_text().replace("name={data point}", "name={data sample}", 1))
    modelled = []
    original = dictionary.as_model
    try:
        dictionary.as_model = lambda term, *a: modelled.append(term["slug"]) or original(term, *a)
        whole, again = both()
    finally:
        dictionary.as_model = original
    assert again == whole and again["datapoint"]["title"] == "data sample"
    # the second call (the kept one) modelled the changed term alone
    assert modelled[len(whole):] == ["datapoint"], modelled[len(whole):]
    # a file another code wrote is not used
    code, made = pickle.loads(kept.read_bytes())
    kept.write_bytes(pickle.dumps((b"other", {key: {"title": "stale"} for key in made})))
    assert both()[1] == whole
