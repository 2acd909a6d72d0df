"""Every mistake in one run: a copy of the fixture dictionary with five different mistakes is read
once (glossary.dictionary.check, the build's own check) and built once (glossary.build), and both
tell all five with file:line:column; a translation's mistake names its edition."""
import os
import shutil
import subprocess
import sys

import pytest
from conftest import REPO

from glossary import dictionary, editions, errors, plan, texdict

FIXTURE = REPO / "tests" / "fixtures" / "texdict"
# (file, text, its broken form, the kind of mistake, the text the mistake's line and column point at)
BREAKS = [
    ("TinyDict_Models.tex", "\\gls{learningrate}\\index", "\\gls{learningrat}\\index", "undefined-key", "learningrat"),
    ("TinyDict_Math.tex", "gives again a vector \\cite{Strang2016}.", "gives again a vector \\cite{Strang2061}.",
     "unknown-citation", "Strang2061"),
    ("TinyDict_Math.tex", "columns. Multiplying", "columns.\n\n\t\tMultiplying", "blank-line", ""),
    ("TinyDict_Models.tex", "{name={model},", "{name={model,", "unbalanced-braces", "name={model,"),
    ("TinyDict_Numbers.tex", None, "\n\\newglossaryentry{vector}\n{name={vector}, description={Again.}}\n",
     "duplicate-key", "\\newglossaryentry{vector}"),
]


def env():
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")]))


@pytest.fixture
def five(tmp_path):
    """A copy of the fixture dictionary with the five mistakes of BREAKS; returns its folder."""
    root = tmp_path / "dict"
    shutil.copytree(FIXTURE, root)
    for name, old, new, _, _ in BREAKS:
        path = root / name
        text = path.read_text(encoding="utf-8")
        if old is None:
            text += new
        else:
            assert text.count(old) >= 1, (name, old)
            text = text.replace(old, new, 1)
        path.write_text(text, encoding="utf-8")
    return root


def pointed_at(root, mistake):
    """The text from the mistake's line and column on."""
    line = (root / mistake.file).read_text(encoding="utf-8").splitlines()[mistake.line - 1]
    return line[mistake.column - 1:]


def test_one_check_tells_all_five_with_line_and_column(five):
    read, found = dictionary.check(five / "dictionary.yaml")
    by_kind = {m.kind: m for m in found}
    assert set(by_kind) == {kind for _, _, _, kind, _ in BREAKS}, errors.report(found)
    for name, _, _, kind, text in BREAKS:
        m = by_kind[kind]
        assert m.file == name, m
        assert pointed_at(five, m).startswith(text), (m, pointed_at(five, m))
    assert by_kind["blank-line"].column == 1 and pointed_at(five, by_kind["blank-line"]) == ""
    # the good terms are read; each term with a mistake of its own is left out
    keys = {e["key"] for e in read["entries"].values()}
    assert {"learningrate", "vector", "matrix"} & keys == set()
    assert {"gd", "dataset", "feature"} <= keys
    assert {"learningrate", "vector", "matrix", "model"} <= set(read["left_out"])
    # load() raises them all at once, one report
    with pytest.raises(errors.Mistakes) as err:
        texdict.load(five / "dictionary.yaml")
    assert {m.kind for m in err.value.mistakes} == set(by_kind) - {"unknown-citation"}


def test_the_build_tells_all_five_and_publishes_nothing(five, tmp_path):
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "glossary.build", "--cores", "1", "--source",
                          str(five / "dictionary.yaml"), "--out", str(out)],
                         capture_output=True, text=True, env=env(), timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    _, found = dictionary.check(five / "dictionary.yaml")
    lines = run.stderr.splitlines()
    assert lines[0].startswith(f"error: {len(found)} mistakes in the dictionary's sources"), run.stderr
    for m in found:
        assert f"{m.file}:{m.line}:{m.column}: " in run.stderr
        assert str(m) in lines
    # grouped by file, in line order; then the summary by kind
    told = [line for line in lines if line.startswith("TinyDict_")]
    places = [(line.split(":")[0], int(line.split(":")[1]), int(line.split(":")[2])) for line in told]
    assert places == sorted(places)
    assert any(line.startswith(f"{len(found)} mistakes: ") and "1 duplicate-key" in line for line in lines)
    assert not (out / "site").exists() and not (out / "results" / "site").exists()


def test_a_long_report_is_capped_with_a_count_and_a_summary():
    found = [errors.Mistake("a.tex", n, 1, f"mistake {n}", "fix it", kind="undefined-key" if n % 2 else "blank-line")
             for n in range(1, 61)]
    lines = errors.report(found).splitlines()
    assert len(lines) == errors.SHOWN + 2
    assert lines[errors.SHOWN] == f"... and {60 - errors.SHOWN} more"
    assert lines[-1] == "60 mistakes: 30 blank-line, 30 undefined-key"


def test_a_translations_mistake_names_its_edition(tmp_path):
    root = tmp_path / "dict"
    shutil.copytree(FIXTURE, root)
    german = root / "de" / "TinyDict_Glossary_German.tex"
    text = german.read_text(encoding="utf-8")
    assert "\\gls{datapoint}" in text
    german.write_text(text.replace("\\gls{datapoint}", "\\gls{datapont}", 1), encoding="utf-8")
    runs = plan.edition_runs(plan.Source(root / "editions.yaml"))
    found = dictionary.check_editions(runs)
    assert found and {m.edition for m in found} == {"de"}, errors.report(found)
    assert all(m.file == "TinyDict_Glossary_German.tex" and " (de edition): " in str(m) for m in found)
    # inside a Snakemake run every edition is read: the base's run names the German edition too
    several = editions.plan(root / "editions.yaml", "en", {"de": {"main": str(root / "de/TinyDict_German.tex")}})
    base = plan.Source(root / "editions.yaml").read()
    with pytest.raises(errors.Mistakes) as err:
        dictionary.load_edition(several, "en", base)
    assert "(de edition)" in str(err.value) and "datapont" in str(err.value)
    # and the build tells it before any run starts, under the German edition's name
    run = subprocess.run([sys.executable, "-m", "glossary.build", "--cores", "1", "--source",
                          str(root / "editions.yaml"), "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, env=env(), timeout=300)
    assert run.returncode == 1 and "(de edition)" in run.stderr and "en edition" not in run.stderr, run.stderr


def test_overlay_text_replaces_a_file(tmp_path):
    """check() reads an editor's unsaved buffer instead of the file (the language server's)."""
    path = (FIXTURE / "TinyDict_Models.tex").resolve()
    text = path.read_text(encoding="utf-8").replace("\\gls{learningrate}\\index", "\\gls{learningrat}\\index", 1)
    read, found = dictionary.check(FIXTURE / "dictionary.yaml", overlay={str(path): text})
    assert [m.kind for m in found] == ["undefined-key"] and "learningrat" in found[0].what
    assert dictionary.check(FIXTURE / "dictionary.yaml")[1] == []


def test_a_yaml_fields_mistake_names_the_fields_line(tmp_path):
    """A mistake in the YAML file (a demo outside the dictionary's folder) is told at its field's line and
    column, its words once: not at line 1, not with the file named twice."""
    root = tmp_path / "dict"
    shutil.copytree(FIXTURE, root)
    config = root / "dictionary.yaml"
    text = config.read_text(encoding="utf-8")
    assert "script: demos/gd_demo.py" in text
    config.write_text(text.replace("script: demos/gd_demo.py", "script: ../gd_demo.py", 1), encoding="utf-8")
    _, found = dictionary.check(config)
    assert len(found) == 1, errors.report(found)
    m = found[0]
    lines = config.read_text(encoding="utf-8").splitlines()
    assert lines[m.line - 1][m.column - 1:].startswith("script: ../gd_demo.py"), m
    assert m.what.startswith("demos.gd.script: '../gd_demo.py' is outside") and str(config) not in m.what, m
    assert "move the file into it" in m.fix, m


def test_a_list_of_symbols_citing_no_record_is_told_with_the_others(five):
    """The List of Symbols' citations are formatted with the terms' (glossary.plan.Plan.cited): a key the
    bibliography lacks is one more mistake of the same check, at its file, line and column."""
    (five / "TinyDict_Symbols.tex").write_text(
        "\\section*{List of Symbols}\n\\begin{align}\n"
        "\t&\\mathbb{R} & \\quad & \\mbox{The real numbers \\cite{Robins1951}.} \\nonumber\n\\end{align}\n",
        encoding="utf-8")
    main = five / "TinyDict_Main.tex"
    main.write_text(main.read_text().replace("\\maketitle\n", "\\maketitle\n\\input{TinyDict_Symbols.tex}\n"))
    _, found = dictionary.check(five / "dictionary.yaml")
    [told] = [m for m in found if m.file == "TinyDict_Symbols.tex"]
    assert (told.kind, told.line, told.term) == ("unknown-citation", 3, "List of Symbols"), told
    assert pointed_at(five, told).startswith("Robins1951") and told.fix == "did you mean 'Robbins1951'?"
    assert {m.kind for m in found} == {kind for _, _, _, kind, _ in BREAKS}     # and the five of the others
