"""A source file that is not UTF-8: one mistake naming the file, the line and column of the first bad
byte, the bytes and the fix; read as LaTeX reads it when the main file declares its encoding with
inputenc; a YAML config too."""
import os
import shutil
import subprocess
import sys

import pytest
from conftest import REPO

from glossary import dictionary, errors, texdict
from glossary.readers.latex import lexer

FIXTURE = REPO / "tests" / "fixtures" / "texdict"
PLAIN = "is an ordered list of"
ACCENTED = "is an ordéred list of"


@pytest.fixture
def latin1(tmp_path):
    """A copy of the fixture whose TinyDict_Math.tex is saved as Latin-1 with one "é" in it."""
    root = tmp_path / "dict"
    shutil.copytree(FIXTURE, root)
    math = root / "TinyDict_Math.tex"
    text = math.read_text(encoding="utf-8")
    assert PLAIN in text and text.isascii()
    math.write_bytes(text.replace(PLAIN, ACCENTED, 1).encode("latin-1"))
    return root


def where_accent(root):
    lines = (root / "TinyDict_Math.tex").read_bytes().decode("latin-1").splitlines()
    line = next(n for n, text in enumerate(lines, 1) if ACCENTED in text)
    return line, lines[line - 1].index("é") + 1


def test_a_latin1_file_is_one_mistake_with_line_column_and_bytes(latin1):
    read, found = dictionary.check(latin1 / "dictionary.yaml")
    assert len(found) == 1, errors.report(found)
    m = found[0]
    assert (m.file, m.kind) == ("TinyDict_Math.tex", "encoding")
    assert (m.line, m.column) == where_accent(latin1)
    assert "b'\\xe9" in m.what and "UTF-8" in m.what
    assert m.fix.startswith("save the file as UTF-8") and "\\usepackage[latin1]{inputenc}" in m.fix
    # the other files' terms are read (a file that cannot be read is one mistake, not one per \gls)
    assert read is not None and "gd" in read["entries"] and "vector" not in read["entries"]


def test_the_build_tells_it_without_a_traceback(latin1, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run([sys.executable, "-m", "glossary.build", "--cores", "1", "--source",
                          str(latin1 / "dictionary.yaml"), "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, env=env, timeout=300)
    line, column = where_accent(latin1)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert f"TinyDict_Math.tex:{line}:{column}: the bytes b'\\xe9" in run.stderr
    assert "save the file as UTF-8" in run.stderr


def test_read_as_latin1_when_the_main_file_declares_it(latin1):
    main = latin1 / "TinyDict_Main.tex"
    text = main.read_text(encoding="utf-8")
    assert "\\begin{document}" in text and text.isascii()
    main.write_text(text.replace("\\begin{document}", "\\usepackage[latin1]{inputenc}\n\\begin{document}", 1),
                    encoding="latin-1")
    read = texdict.load(latin1 / "dictionary.yaml")
    assert ACCENTED in read["entries"]["vector"]["body"]
    # a commented-out declaration declares nothing
    main.write_text(text.replace("\\begin{document}", "% \\usepackage[latin1]{inputenc}\n\\begin{document}", 1),
                    encoding="latin-1")
    assert [m.kind for m in dictionary.check(latin1 / "dictionary.yaml")[1]] == ["encoding"]


def test_the_encodings_latex_knows():
    assert lexer.encoding_of(b"\\usepackage[T1]{fontenc}\n\\usepackage[latin9]{inputenc}\n") == "iso8859-15"
    assert lexer.encoding_of(b"\\usepackage[ansinew]{inputenc}") == "cp1252"
    assert lexer.encoding_of(b"\\usepackage[utf8]{inputenc}") == "utf-8"
    assert lexer.encoding_of(b"\\documentclass{article}") == "utf-8"
    assert "€".encode("cp1252").decode(lexer.encoding_of(b"\\usepackage[ansinew]{inputenc}")) == "€"


def test_a_yaml_config_that_is_not_utf8(tmp_path):
    root = tmp_path / "dict"
    shutil.copytree(FIXTURE, root)
    config = root / "dictionary.yaml"
    text = config.read_text(encoding="utf-8")
    assert "Written for" in text
    config.write_bytes(text.replace("Written for", "Writtén for", 1).encode("latin-1"))
    read, found = dictionary.check(config)
    assert read is None and len(found) == 1, found
    lines = text.splitlines()
    line = next(n for n, t in enumerate(lines, 1) if "Written for" in t)
    assert (found[0].line, found[0].column) == (line, lines[line - 1].index("Written") + 6)
    assert "b'\\xe9" in found[0].what and found[0].fix == "save the file as UTF-8"
