"""The typed entry model (glossary.model): what the readers hand on, with positions, and that no
stage after them asks which format an entry came from."""
import re

import pytest
from conftest import REPO

from glossary import dictionary, entries, model, plan

FIXTURE = REPO / "tests" / "fixtures" / "texdict"


@pytest.fixture(scope="module")
def latex():
    """The fixture dictionary's terms in the model, by slug."""
    read = plan.Source(FIXTURE / "dictionary.yaml").read()
    return read, {slug: dictionary.as_model(t, read["root"], read["labels"]) for slug, t in read["entries"].items()}


@pytest.fixture(scope="module")
def markdown():
    loaded = entries.load_all(REPO / "entries", REPO / entries.SCHEMA)
    return {slug: dictionary.as_model(e, ".") for slug, e in loaded.items()}


def file_line(path, line):
    return open(path, encoding="utf-8").read().split("\n")[line - 1]


def test_json_form_reads_back_as_the_same_entry(latex, markdown):
    for data in [*latex[1].values(), *markdown.values()]:
        entry = model.Entry.from_json(data)
        assert entry.to_json() == data
        assert isinstance(entry.document, model.Document)
        assert not {"body", "body_format", "body_line", "format"} & set(data)


def test_latex_mentions_are_the_descriptions_names_on_their_lines(latex):
    read, models = latex
    for slug, data in models.items():
        entry = model.Entry.from_json(data)
        body = read["entries"][slug]["body"]
        assert entry.document == model.Document("latex", body, read["entries"][slug]["body_line"])
        assert [m.name for m in entry.links] == [k.strip() for k in re.findall(r"\\[Gg]ls[a-z]*\{([^{}]*)\}", body)]
        for m in entry.links:
            assert m.name in file_line(entry.path, m.line)
        for m in entry.label_refs + entry.citations:
            assert m.name in file_line(entry.path, m.line)
    audit = model.Entry.from_json(models["norm"])
    assert {m.name for m in audit.label_refs} >= {"eq:norm-triangle", "eq:norm-euclidean", "fig:norm-arrow"}


def test_latex_labels_carry_their_number_and_line(latex):
    read, models = latex
    found = {}
    for data in models.values():
        entry = model.Entry.from_json(data)
        for label in entry.labels:
            found[label.name] = {"slug": entry.slug, "kind": label.kind, "number": label.number}
            assert f"\\label{{{label.name}}}" in file_line(entry.path, label.line)
    assert found == read["labels"] and found


def test_markdown_mentions_are_the_links_on_their_lines(markdown):
    entry = model.Entry.from_json(markdown["attention"])
    assert entry.document.reader == "markdown" and entry.document.source.startswith("\n") is False
    assert [m.name for m in entry.links] == ["multi-head-attention"]
    assert "[[multi-head-attention" in file_line(entry.path, entry.links[0].line)
    assert entry.label_refs == [] and entry.meta["demo"] == "attention.py"


def test_with_prose_finds_the_mentions_again(latex):
    data = latex[1]["norm"]
    labels = model.Entry.from_json(data).labels
    changed = model.with_prose(data, "See \\gls{gd} and \\cite{a, b}.\n\n\\label{%s}" % labels[0].name, 40, line=3)
    entry = model.Entry.from_json(changed)
    assert entry.document.source.startswith("See") and entry.line == 3
    assert entry.links == [model.Mention("gd", 40)]
    assert entry.citations == [model.Mention("a", 40), model.Mention("b", 40)]
    assert [(x.name, x.number, x.line) for x in entry.labels][0] == (labels[0].name, labels[0].number, 42)


def test_no_stage_after_the_readers_asks_the_format():
    """Document.reader is read by glossary.model (what the prose names) and glossary.documents (its
    parse) alone, the readers' format field by glossary.dictionary.as_model (the model's boundary);
    the rules hand the reader's name on (the forms' params) without asking it."""
    asks = re.compile(r'body_format|\["format"\]|document\.reader|\["document"\]\["reader"\]')
    allowed = {"model.py", "documents.py", "dictionary.py", "reading.smk"}
    files = [*sorted((REPO / "src" / "glossary").glob("*.py")), *sorted((REPO / "workflow" / "rules").glob("*.smk"))]
    found = [f"{p.name}:{i}" for p in files for i, line in enumerate(p.read_text(encoding="utf-8").split("\n"), 1)
             if asks.search(line)]
    assert [f for f in found if f.split(":")[0] not in allowed] == []
    assert [f.split(":")[0] for f in found if f.startswith("dictionary.py")] == ["dictionary.py"]     # as_model
