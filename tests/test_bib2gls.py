"""The bib2gls reader (glossary.readers.bib2gls): .bib records named by \\GlsXtrLoadResources read into
the same model as \\newglossaryentry definitions.

The unit tests write small main and .bib files and read them through texdict.read, the way the build
reads them: each record type's fields, and each mistake's message (file:line, the term, the fix).
The build test (slow) builds the fixture dictionary (tests/fixtures/texdict) and its bib2gls edition
(tests/fixtures/texdict-bib2gls, the same terms as records) and compares the term pages byte for byte.
"""
import os
import re
import shutil
import subprocess
import sys

import pytest
from conftest import REPO, tree_bytes

from glossary import texdict
from glossary.entries import EntryError

FIXTURE = REPO / "tests" / "fixtures" / "texdict"
BIB_FIXTURE = REPO / "tests" / "fixtures" / "texdict-bib2gls"

MAIN = r"""\documentclass{article}
\usepackage[record]{glossaries-extra}
\newglossary*{math}{Mathematical Tools}
%STYLE%
\GlsXtrLoadResources[src={terms},selection=all]
%MORE%
\begin{document}
\printunsrtglossary[type=math]
\printunsrtglossary
\end{document}
"""


def dictionary(tmp_path, bib, main=MAIN, style="", more="", **files):
    """texdict.read of a main file loading terms.bib (and other files given by name)."""
    (tmp_path / "main.tex").write_text(main.replace("%STYLE%", style).replace("%MORE%", more))
    (tmp_path / "terms.bib").write_text(bib)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return texdict.read(tmp_path / "main.tex")


def error(tmp_path, bib, **kw):
    """The first mistake's message without its column (file:line:column: -> file:line:)."""
    with pytest.raises(EntryError) as err:
        dictionary(tmp_path, bib, **kw)
    return re.sub(r"(?m)^([^:\n]+:\d+):\d+: ", r"\1: ", str(err.value))


# ---------------------------------------------------------------- records and fields


def test_entry_fields_forms_and_positions(tmp_path):
    bib = ("% a comment line\n@comment{anything at all}\n@string{ml = \"machine learning\"}\n\n"
           "@entry{vector,\n  name = {vector},\n  description = \"A list of numbers\n    in \" # ml # {, 100\\%.},\n"
           "  type = {math},\n  plural = {vectors}\n}\n")
    read = dictionary(tmp_path, bib)
    entry = read["entries"]["vector"]
    assert entry["title"] == "vector" and entry["section"] == "math"
    assert entry["body"] == "A list of numbers\n    in machine learning, 100\\%."
    assert (entry["path"], entry["line"], entry["body_line"]) == ("terms.bib", 5, 7)
    assert entry["forms"] == {"text": "vector", "first": "vector", "plural": "vectors", "firstplural": "vectors"}
    assert read["sections"] == [{"id": "math", "title": "Mathematical Tools"}, {"id": "main", "title": "Glossary"}]


def test_resource_type_and_record_type(tmp_path):
    main = MAIN.replace("src={terms}", "src={terms},type=math")
    bib = ("@entry{a, name={a}, description={An \\gls{b}.}}\n"
           "@entry{b, name={b}, description={Bee.}, type={main}}\n")
    entries = dictionary(tmp_path, bib, main=main)["entries"]
    assert (entries["a"]["section"], entries["b"]["section"]) == ("math", "main")


@pytest.mark.parametrize("style, kind, name, first, description", [
    ("", "abbreviation", "SVM", "support vector machine (SVM)", "support vector machine"),
    ("", "acronym", "SVM", "SVM", "support vector machine"),  # glossaries-extra: acronyms are short-nolong
    ("\\setabbreviationstyle{short-long}", "abbreviation", "SVM", "SVM (support vector machine)",
     "support vector machine"),
    ("\\setabbreviationstyle[acronym]{long-short}", "acronym", "SVM", "support vector machine (SVM)",
     "support vector machine"),
])
def test_abbreviation_styles(tmp_path, style, kind, name, first, description):
    bib = f"@{kind}{{svm,\n  short={{SVM}},\n  long={{support vector machine}}\n}}\n"
    entry = dictionary(tmp_path, bib, style=style)["entries"]["svm"]
    assert entry["title"] == name and entry["body"] == description
    assert entry["forms"]["first"] == first and entry["forms"]["text"] == "SVM"
    assert entry["forms"]["plural"] == "SVMs"
    assert entry["body_line"] == 3  # the description is long=: its line


def test_abbreviation_desc_style_and_own_fields(tmp_path):
    bib = ("@abbreviation{gd, short={GD}, long={gradient descent}, longplural={gradient descents},\n"
           "  description={Steps downhill.}, text={G.D.}}\n")
    entry = dictionary(tmp_path, bib, style="\\setabbreviationstyle{long-short-desc}")["entries"]["gd"]
    assert entry["title"] == "gradient descent (GD)" and entry["body"] == "Steps downhill."
    assert entry["forms"] == {"text": "G.D.", "first": "gradient descent (GD)", "plural": "GDs",
                              "firstplural": "gradient descents (GDs)", "short": "GD", "long": "gradient descent"}


def test_symbol_index_dual_and_see_also(tmp_path):
    bib = ("@symbol{lrate, symbol={\\ensuremath{\\eta}}, description={The step size; see \\gls{idx}.}}\n"
           "@symbol{named, name={rate}, symbol={r}, description={A rate.}}\n"
           "@index{idx}\n"
           "@dualentry{cat, name={cat}, description={Katze}, seealso={lrate, named}}\n")
    entries = dictionary(tmp_path, bib)["entries"]
    assert entries["lrate"]["title"] == "\\ensuremath{\\eta}"
    assert entries["named"]["title"] == "rate"
    assert (entries["idx"]["title"], entries["idx"]["body"]) == ("idx", "")
    assert entries["cat"]["body"] == "Katze" and entries["cat"]["see_also"] == ["lrate", "named"]
    assert entries["dual-cat"]["key"] == "dual.cat"
    assert (entries["dual-cat"]["title"], entries["dual-cat"]["body"]) == ("Katze", "cat")


def test_see_also_after_a_figure_needs_no_line_break(tmp_path):
    bib = ("@entry{a, name={a}, description={Text.\n  \\begin{figure}[H]\\centering x\\end{figure}},\n"
           "  see={b}}\n@entry{b, name={b}, description={Bee.}}\n")
    entry = dictionary(tmp_path, bib)["entries"]["a"]
    assert entry["see_also"] == ["b"] and "See also" not in entry["body"]


def test_two_files_and_default_src(tmp_path):
    main = MAIN.replace("src={terms}", "src={terms,more.bib}")
    entries = dictionary(tmp_path, "@entry{a, name={a}, description={A.}}\n", main=main,
                         **{"more.bib": "@entry{b, name={b}, description={B.}}\n"})["entries"]
    assert sorted(entries) == ["a", "b"]
    main = MAIN.replace("[src={terms},", "[")  # no src=: the main file's own name, main.bib
    (tmp_path / "main.bib").write_text("@entry{c, name={c}, description={C.}}\n")
    assert sorted(dictionary(tmp_path, "", main=main)["entries"]) == ["c"]


# ---------------------------------------------------------------- mistakes


@pytest.mark.parametrize("bib, where, says", [
    ("@entry{a, name={a}, description={A {b.}\n", "terms.bib:1", "term 'a': the braces of this record do not "
     "close before the end of terms.bib; add the missing '}'"),
    ("@entry{a, name={a}, description={A {b.}\n}\n\n@entry{b, name={b}, description={B.}}\n", "terms.bib:1",
     "term 'a': the braces of this record do not close before the next record (line 4)"),
    ("@entry{a, name={a}, description={A.}}}\n, type=math}\n", "terms.bib:1", "term 'a': text after the record's "
     "closing brace ('}\\n, type=math}'): its braces close too early; remove the stray '}'"),
    ("@entry{a, name={a}, description={A.}}\n\n@entry{a, name={a}, description={A.}}\n", "terms.bib:3",
     "term 'a' is defined twice (also at terms.bib:1); keep one definition or rename one key"),
    ("@entry{a,\n  name=,\n  description={A.}}\n", "terms.bib:2", "term 'a': field 'name' has no value; write "
     "name={...} or remove it"),
    ("@entry{a,\n  name {a},\n  description={A.}}\n", "terms.bib:2", "term 'a': 'name {a},' is no field; write "
     "name={value}"),
    ("@entry{a,\n  name={a}\n  description={A.}}\n", "terms.bib:2", "term 'a': no ',' after field 'name'; add it"),
    ("@entry{a, name={a},\n  Name={b}, description={A.}}\n", "terms.bib:2", "term 'a': field 'name' is given "
     "twice; keep one"),
    ("@entry{a, name={a},\n  description=\"A {b}.}\n@entry{b, name={b}, description={B.}}\n", "terms.bib:2",
     "term 'a': field 'description': its value does not end inside the record; close its '\"'"),
    ("@entri{a, name={a}, description={A.}}\n", "terms.bib:1", "term 'a': bib2gls has no record type @entri that "
     "this reader knows; did you mean @entry?"),
    ("@entry{a, name=ml, description={A.}}\n", "terms.bib:1", "term 'a': field 'name': 'ml' is no @string macro; "
     "define it with @string or put the value in braces"),
    ("\n@abbreviation{svm, short={SVM}}\n", "terms.bib:2", "term 'svm': @abbreviation needs long={...}; add it"),
    ("@entry{a, name={a}}\n", "terms.bib:1", "term 'a': no description= given; add description={...}"),
    ("@entry{a, name={a}, description={\\gls{b}}}\n", "terms.bib:1", "term 'a': \\gls key 'b' is not defined"),
])
def test_mistakes_name_file_line_term_and_fix(tmp_path, bib, where, says):
    message = error(tmp_path, bib)
    assert message.startswith(where + ": ") and says in message, message


def test_missing_src_file_and_unknown_style(tmp_path):
    main = MAIN.replace("src={terms}", "src={terms,other}")
    message = error(tmp_path, "", main=main)
    assert message.startswith("main.tex:5: \\GlsXtrLoadResources[src={terms,other}]: no file other.bib under ")
    assert "fix the name in src= or add the .bib file" in message
    message = error(tmp_path, "@abbreviation{x, short={X}, long={ex}}\n", style="\\setabbreviationstyle{footnote}")
    assert message.startswith("main.tex:4: \\setabbreviationstyle{footnote}: the reader knows the styles ")


def test_fixture_edition_reads_as_the_tex_fixture():
    """The bib2gls edition gives the .tex fixture's model, but for where each term is written and the
    abbreviations' first plural (glossaries-extra: "long plural (short plural)")."""
    tex, bib = texdict.load(FIXTURE / "dictionary.yaml"), texdict.load(BIB_FIXTURE / "dictionary.yaml")
    assert (bib["sections"], bib["labels"], bib["macro_files"], bib["bibliography"]) == \
        (tex["sections"], tex["labels"], tex["macro_files"], tex["bibliography"])
    where = ("path", "line", "body_line", "pictures", "graphics")

    def placed(items):
        return [{k: v for k, v in item.items() if k != "line"} for item in items]
    assert sorted(bib["entries"]) == sorted(tex["entries"])
    for slug, entry in tex["entries"].items():
        mine = bib["entries"][slug]
        assert mine["path"] == entry["path"].replace(".tex", ".bib")
        assert (placed(mine["pictures"]), placed(mine["graphics"])) == \
            (placed(entry["pictures"]), placed(entry["graphics"])), slug
        forms = dict(entry["forms"])
        if slug in ("gd", "mse"):       # written as \newglossaryentry in the .tex edition: no short, long
            forms["firstplural"] = mine["forms"]["firstplural"]
            forms.update({k: mine["forms"][k] for k in ("short", "long")})
        if slug == "learningrate":     # a @symbol here: sorted by its id, as bib2gls sorts symbols
            assert mine.pop("sort") == "learningrate" and "sort" not in entry
        assert {k: v for k, v in mine.items() if k not in where} == \
            {k: v for k, v in entry.items() if k not in where} | {"forms": forms}, slug
    kinds = {m.group(1) for f in BIB_FIXTURE.glob("*.bib") for m in re.finditer(r"^@(\w+)\{", f.read_text(), re.M)}
    assert {"abbreviation", "symbol", "entry"} <= kinds


# ---------------------------------------------------------------- the build


def build(source, out):
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    env.pop("GLOSSARY_EVENTS", None)
    run = subprocess.run([sys.executable, "-m", "glossary.build", "--cores", "2", "--source", str(source),
                          "--out", str(out)], cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, f"build failed ({run.returncode}):\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    return out / "site"


def without_demos(src, dst):
    """A copy of a fixture whose YAML names no demos (a demo's job would only lengthen the builds)."""
    shutil.copytree(src, dst)
    config = dst / "dictionary.yaml"
    config.write_text(re.sub(r"^demos:\n(?:[ \t]+.*\n?)*", "", config.read_text(), flags=re.M))
    return config


@pytest.mark.slow
def test_each_term_builds_the_same_page_from_either_source(tmp_path):
    tex = build(without_demos(FIXTURE, tmp_path / "texdict"), tmp_path / "out-tex")
    bib = build(without_demos(BIB_FIXTURE, tmp_path / "texdict-bib2gls"), tmp_path / "out-bib")
    tex_pages, bib_pages = tree_bytes(tex / "terms"), tree_bytes(bib / "terms")
    assert sorted(bib_pages) == sorted(tex_pages) and len(tex_pages) >= 20
    differ = [name for name in tex_pages if tex_pages[name] != bib_pages[name]]
    assert not differ, f"pages that differ: {differ}"
