"""The language server (issue 24 item 2, glossary.lsp, docs/lsp.md), spoken to as an editor does: the
server a subprocess (`python -m glossary.lsp`), LSP over its stdin and stdout through pygls's client
(glossary.lspclient), on a copy of the fixture dictionary with its German and Greek editions.

What it answers is checked against what the project's reader says of the same files: a diagnostic's
words are the build's error for the same text, completion lists the reader's keys, the .bib file's
records and labels, a rename leaves files the reader reads with the new key in both editions."""
import asyncio
import re
import shutil
from pathlib import Path

import pytest
from lsprotocol import types
from pygls import uris
from pygls.exceptions import JsonRpcException
from test_editions import FIXTURE

from glossary import citations, cli, dictionary, lspindex, texdict
from glossary.entries import EntryError
from glossary.lspclient import Session, where

MODELS = "TinyDict_Models.tex"
GERMAN = "de/TinyDict_Glossary_German.tex"


@pytest.fixture
def folder(tmp_path):
    """A copy of the fixture as an author keeps it: one dictionary.yaml (the one `glossary build` takes
    too) naming its editions and its demo."""
    root = tmp_path / "dict"
    shutil.copytree(FIXTURE, root)
    demos = (root / "dictionary.yaml").read_text(encoding="utf-8").split("demos:", 1)[1]
    (root / "dictionary.yaml").write_text((root / "editions.yaml").read_text(encoding="utf-8") + "demos:" + demos,
                                          encoding="utf-8")
    (root / "editions.yaml").unlink()
    return root


def talk(folder, conversation, source=None):
    """Start the server in `folder`, and return what `await conversation(session)` returns."""
    async def run():
        async with Session(folder, source) as session:
            return await asyncio.wait_for(conversation(session), 60)
    return asyncio.run(run())


def doc(uri):
    return types.TextDocumentIdentifier(uri)


def position(text, needle, shift=0):
    return types.Position(*where(text, needle, shift))


def applied(text, edits):
    """The text with LSP TextEdits applied (from the last, so that earlier positions hold)."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start = starts[edit.range.start.line] + edit.range.start.character
        end = starts[edit.range.end.line] + edit.range.end.character
        text = text[:start] + edit.new_text + text[end:]
    return text


def first_error(error):
    """(line, words after the place) of the first mistake an error of the build tells."""
    m = lspindex.WHERE.match(str(error).splitlines()[0])
    return int(m["line"]), m["rest"]


def diagnostics_as_typed(folder, path, broken):
    """The diagnostics the server sends once the open file at `path` reads `broken` (typed, not saved)."""
    async def conversation(s):
        uri = await s.open(path)
        await s.diagnostics(uri)
        sent = await s.change(uri, broken)
        _, typed = await s.diagnostics(uri, lambda ds: bool(ds), after=sent)
        return typed

    return talk(folder, conversation)


def test_a_wrong_key_typed_is_the_builds_own_mistake_and_goes_when_mended(folder, tmp_path):
    path = folder / MODELS
    text = path.read_text(encoding="utf-8")
    broken = text.replace(r"\glspl{feature} $\featurevec", r"\glspl{featur} $\featurevec", 1)
    # What the build says of the same text, saved.
    copy = tmp_path / "saved"
    shutil.copytree(folder, copy)
    (copy / MODELS).write_text(broken, encoding="utf-8")
    with pytest.raises(EntryError) as error:
        texdict.load(copy / "dictionary.yaml")
    line, said = first_error(error.value)

    async def conversation(s):
        uri = await s.open(path)
        _, first = await s.diagnostics(uri)
        sent = await s.change(uri, broken)
        _, wrong = await s.diagnostics(uri, lambda ds: bool(ds), after=sent)
        sent = await s.change(uri, text)
        _, mended = await s.diagnostics(uri, after=sent)
        return first, wrong, mended

    first, wrong, mended = talk(folder, conversation)
    assert list(first) == [] and list(mended) == []
    assert len(wrong) == 1
    assert wrong[0].message == said and "did you mean feature?" in said
    assert wrong[0].range.start.line == line - 1 and wrong[0].severity == types.DiagnosticSeverity.Error
    assert not (folder / MODELS).read_text(encoding="utf-8") != text, "the server wrote the file"


def build_error(folder, lang):
    """The build's error message, without its place, for the dictionary as saved in `folder`: the
    reader's, then the citation check's (glossary.plan's order), of the base or of edition `lang`."""
    base = texdict.read(folder / "TinyDict_Main.tex")
    read = base if lang is None else texdict.read(folder / "de/TinyDict_German.tex", base=base)
    bib = Path(base["root"]) / base["bibliography"]
    dictionary.check_citations({"entries": {s: dictionary.as_model(e, read["root"])
                                            for s, e in read["entries"].items()}, "bibliography": str(bib)})


@pytest.mark.parametrize("name, old, new, lang", [
    (MODELS, r"\cite{Bishop2006}", r"\cite{Bishop2007}", None),
    (GERMAN, r"Siehe auch: \gls{matrix}", r"Siehe auch: \gls{matrx}", "de"),
])
def test_an_unknown_citation_and_a_translations_mistake_in_the_builds_words(folder, tmp_path, name, old, new, lang):
    path = folder / name
    text = path.read_text(encoding="utf-8")
    broken = text.replace(old, new, 1)
    copy = tmp_path / "saved"
    shutil.copytree(folder, copy)
    (copy / name).write_text(broken, encoding="utf-8")
    with pytest.raises(EntryError) as error:
        build_error(copy, lang)
    _, said = first_error(error.value)

    wrong = diagnostics_as_typed(folder, path, broken)
    assert [d.message for d in wrong] == [f"{lang} edition: {said}" if lang else said]
    assert wrong[0].range.start.line == where(text, old)[0]
    assert "did you mean" in said


def test_a_picture_that_does_not_compile_is_told_after_a_save(folder):
    path = folder / MODELS
    text = path.read_text(encoding="utf-8")
    drawn = r"\draw[->] (-2.2,0) -- (2.2,0) node[right] {$w$};"
    broken = text.replace(drawn, drawn + r" \nosuchcommand", 1)
    term = next(e for e in texdict.read(folder / "TinyDict_Main.tex")["entries"].values()
                if e["path"] == MODELS and e["pictures"])

    async def conversation(s):
        uri = await s.open(path)
        await s.diagnostics(uri)
        sent = await s.change(uri, broken)
        _, typed = await s.diagnostics(uri, after=sent)          # TeX waits for the save
        sent = await s.save(uri, broken)
        _, saved = await s.diagnostics(uri, lambda ds: bool(ds), after=sent, timeout=50)
        sent = await s.change(uri, text)
        sent = await s.save(uri, text)
        _, mended = await s.diagnostics(uri, lambda ds: not ds, after=sent, timeout=50)
        return typed, saved, mended

    typed, saved, mended = talk(folder, conversation)
    assert list(typed) == [] and list(mended) == []
    assert len(saved) == 1
    assert saved[0].message.startswith(f"term '{term['key']}': picture 1 does not compile: ")
    assert "Undefined control sequence" in saved[0].message
    assert saved[0].range.start.line == where(text, drawn)[0]


def test_a_picture_reading_outside_the_folder_is_told_as_typed(folder):
    """The reader tells a picture's read outside the dictionary's folder (which the sandboxed TeX run
    would refuse) while the author types, before any save or build."""
    path = folder / MODELS
    text = path.read_text(encoding="utf-8")
    drawn = r"\draw[->] (-2.2,0) -- (2.2,0) node[right] {$w$};"
    broken = text.replace(drawn, drawn + r" \node {\input{../outside/secret}};", 1)

    typed = diagnostics_as_typed(folder, path, broken)
    assert len(typed) == 1, [d.message for d in typed]
    assert "picture 1 reads ../outside/secret, outside the dictionary's folder" in typed[0].message
    assert typed[0].range.start.line == where(text, drawn)[0]


def test_completion_of_keys_citations_labels_macros_and_sections(folder):
    path = folder / MODELS
    read = texdict.read(folder / "TinyDict_Main.tex")
    line = len(path.read_text(encoding="utf-8").split("\n"))
    tails = {"gls": "Some \\gls{da", "cite": "see \\cite[p.~3]{Strang2016, Bi", "ref": "Fig.~\\ref{fig:",
             "eqref": "\\eqref{", "macro": "$\\featu", "type": "\ttype=mo"}

    async def conversation(s):
        uri = await s.open(path)
        await s.diagnostics(uri)
        found = {}
        for name, tail in tails.items():
            text = path.read_text(encoding="utf-8") + tail
            await s.change(uri, text)
            found[name] = await s.client.text_document_completion_async(
                types.CompletionParams(doc(uri), types.Position(line - 1, len(tail))))
        item = next(i for i in found["gls"].items if i.label == "dataset")
        resolved = await s.client.completion_item_resolve_async(item)
        return found, resolved

    found, resolved = talk(folder, conversation)
    gls = {i.label: i for i in found["gls"].items}
    assert set(gls) == {e["key"] for e in read["entries"].values()}
    assert all(gls[e["key"]].detail == e["title"] for e in read["entries"].values())
    assert gls["dataset"].text_edit.range.end.character - gls["dataset"].text_edit.range.start.character == 2
    assert resolved.documentation.value.startswith("**dataset**")
    assert "collection of data points" in resolved.documentation.value
    cite = {i.label: i for i in found["cite"].items}
    assert set(cite) == set(citations.bib_keys(folder / "assets" / "tiny.bib"))
    assert cite["Bishop2006"].detail == "Christopher M. Bishop (2006)"
    assert cite["Bishop2006"].text_edit.range.start.character == len(tails["cite"]) - 2
    assert {i.label for i in found["ref"].items} == set(read["labels"]) == {i.label for i in found["eqref"].items}
    notation = (folder / "assets" / "notation.tex").read_text(encoding="utf-8")
    macros = {i.label: i.detail for i in found["macro"].items}
    assert macros["\\featurevec"] in notation and set(macros) >= {"\\featurevec", "\\lossfunc", "\\trace"}
    assert {i.label for i in found["type"].items} == set(read["declared"])


def test_hover_on_a_key_a_citation_and_a_macro(folder):
    path = folder / MODELS
    text = path.read_text(encoding="utf-8")

    async def conversation(s):
        uri = await s.open(path)
        await s.diagnostics(uri)
        return [await s.client.text_document_hover_async(types.HoverParams(doc(uri), position(text, *at)))
                for at in ((r"\glspl{datapoint}", 9), (r"\cite{Bishop2006}", 8), (r"$\featurevec", 3))]

    term, cite, macro = talk(folder, conversation)
    # The term's name and section as the reader has them, then its summary: the abstract the build
    # writes to terms.json for this term (a fixture build's, compared by hand once).
    read = texdict.read(folder / "TinyDict_Main.tex")
    title, section = read["entries"]["datapoint"]["title"], read["entries"]["datapoint"]["section"]
    assert term.contents.value.startswith(f"**{title}** (`datapoint`, {section})")
    assert term.contents.value.endswith("A data point is one observation, described by its features 𝒙 and its "
                                        "label y; a photo is a typical example (see Fig. 1 of data point).")
    record = next(r for r in lspindex.bib_records(folder / "assets/tiny.bib").values() if r.key == "Bishop2006")
    assert record.title in cite.contents.value and record.year in cite.contents.value
    assert "\\newcommand{\\featurevec}{\\vx}" in macro.contents.value


def test_positions_are_the_clients_utf16_units(folder):
    """Columns on a line with characters outside the BMP: two UTF-16 units each, one character."""
    path = folder / MODELS
    wide = "𝒙𝒚𝒛𝒘𝒗𝒖𝒕𝒔𝒓𝒒"
    text = path.read_text(encoding="utf-8").replace(r"See also: \gls{feature}, \gls{dataset}.",
                                                    rf"See also {wide}: \gls{{feature}}, \gls{{dataset}}.", 1)
    line, character = where(text, r"\gls{dataset}", len(r"\gls{"))
    units = character + len(wide)         # each wide character is two UTF-16 units

    async def conversation(s):
        uri = await s.open(path)
        await s.diagnostics(uri)
        await s.change(uri, text)
        return await s.client.text_document_hover_async(types.HoverParams(doc(uri), types.Position(line, units)))

    hover = talk(folder, conversation)
    assert hover.contents.value.startswith("**dataset**")
    assert (hover.range.start.line, hover.range.start.character, hover.range.end.character) == \
        (line, units, units + len("dataset"))


def test_definition_and_references_in_an_edition_and_across_files(folder):
    """Definitions of keys (a translation's own, else its base's), a label, a citation's record; the
    references to a key."""
    models = folder / MODELS
    german = folder / GERMAN
    text, german_text = models.read_text(encoding="utf-8"), german.read_text(encoding="utf-8")

    async def conversation(s):
        uri, de_uri = await s.open(models), await s.open(german)
        await s.diagnostics(uri)
        await asyncio.sleep(1)     # the translations are checked once the base is
        d = s.client
        return (await d.text_document_definition_async(types.DefinitionParams(
                    doc(uri), position(text, r"\gls{dataset}", 6))),
                await d.text_document_definition_async(types.DefinitionParams(
                    doc(de_uri), position(german_text, r"\gls{feature}", 6))),
                await d.text_document_definition_async(types.DefinitionParams(
                    doc(de_uri), position(german_text, r"\gls{gd}", 6))),
                await d.text_document_definition_async(types.DefinitionParams(
                    doc(uri), position(text, r"\ref{fig:datapoint-photo}", 6))),
                await d.text_document_definition_async(types.DefinitionParams(
                    doc(uri), position(text, r"\cite{Bishop2006}", 7))),
                await d.text_document_references_async(types.ReferenceParams(
                    text_document=doc(uri), position=position(text, r"\newglossaryentry{dataset}", 19),
                    context=types.ReferenceContext(include_declaration=True))))

    dataset, feature_de, gd_de, label, record, refs = talk(folder, conversation)
    assert [(uris.to_fs_path(x.uri), x.range.start.line) for x in label] == \
        [(str(models), where(text, r"\label{fig:datapoint-photo}")[0])]
    bib = folder / "assets" / "tiny.bib"
    assert [(uris.to_fs_path(x.uri), x.range.start.line) for x in record] == \
        [(str(bib), where(bib.read_text(encoding="utf-8"), "@book{Bishop2006")[0])]
    assert [(uris.to_fs_path(x.uri), x.range.start.line) for x in dataset] == \
        [(str(models), where(text, "\\newglossaryentry{dataset}")[0])]
    # A translation's key goes to its own definition; a key only the base defines, to the base's.
    assert [(uris.to_fs_path(x.uri), x.range.start.line) for x in feature_de] == \
        [(str(german), where(german_text, "\\newglossaryentry{feature}")[0])]
    assert [(uris.to_fs_path(x.uri), x.range.start.line) for x in gd_de] == \
        [(str(models), where(text, "\\newglossaryentry{gd}")[0])]
    files = texdict.read(folder / "TinyDict_Main.tex")["glossary_files"]
    expected = [(str(folder / name), line) for name in files
                for line, row in enumerate((folder / name).read_text(encoding="utf-8").split("\n"))
                for _ in re.finditer(r"\\(?:[gG]ls[a-z]*|newglossaryentry)\{dataset\}", row.split("%")[0])]
    assert sorted((uris.to_fs_path(x.uri), x.range.start.line) for x in refs) == sorted(expected)
    assert len(expected) > 3


def test_rename_a_key_across_both_editions(folder):
    models = folder / MODELS
    text = models.read_text(encoding="utf-8")

    async def conversation(s):
        uri = await s.open(models)
        await s.diagnostics(uri)
        at = position(text, r"\glspl{feature}", 8)
        prepared = await s.client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=doc(uri), position=at))
        edit = await s.client.text_document_rename_async(
            types.RenameParams(text_document=doc(uri), position=at, new_name="trait"))
        try:
            await s.client.text_document_rename_async(
                types.RenameParams(text_document=doc(uri), position=at, new_name="dataset"))
            clash = None
        except JsonRpcException as err:
            clash = str(err)
        return prepared, edit, clash

    prepared, edit, clash = talk(folder, conversation)
    assert (prepared.start.line, prepared.end.character - prepared.start.character) == \
        (where(text, r"\glspl{feature}")[0], len("feature"))
    assert "already defined" in (clash or "")
    changed = {Path(uris.to_fs_path(u)) for u in edit.changes}
    assert folder / GERMAN in changed and models in changed
    for uri, edits in edit.changes.items():
        path = Path(uris.to_fs_path(uri))
        path.write_text(applied(path.read_text(encoding="utf-8"), edits), encoding="utf-8")
    base = texdict.read(folder / "TinyDict_Main.tex")
    german = texdict.read(folder / "de/TinyDict_German.tex", base=base)
    for read in (base, german):
        keys = {e["key"] for e in read["entries"].values()}
        assert "trait" in keys and "feature" not in keys
    for path in folder.rglob("*.tex"):
        assert not re.search(r"\\[gG]ls[a-z]*\{feature\}", path.read_text(encoding="utf-8")), path


def test_rename_a_key_with_a_demo_renames_it_in_the_yaml_file(folder):
    models = folder / MODELS
    text = models.read_text(encoding="utf-8")

    async def conversation(s):
        uri = await s.open(models)
        await s.diagnostics(uri)
        return await s.client.text_document_rename_async(types.RenameParams(
            text_document=doc(uri), position=position(text, r"\newglossaryentry{gd}", 18), new_name="descent"))

    edit = talk(folder, conversation, source=folder / "dictionary.yaml")
    for uri, edits in edit.changes.items():
        path = Path(uris.to_fs_path(uri))
        path.write_text(applied(path.read_text(encoding="utf-8"), edits), encoding="utf-8")
    loaded = texdict.load(folder / "dictionary.yaml")     # its demos: name a key the dictionary has
    assert set(loaded["config"]["demos"]) == {"descent"}
    assert "descent" in {e["key"] for e in loaded["entries"].values()}


def test_document_symbols_are_the_files_terms(folder):
    models = folder / MODELS
    read = texdict.read(folder / "TinyDict_Main.tex")

    async def conversation(s):
        uri = await s.open(models)
        await s.diagnostics(uri)
        return await s.client.text_document_document_symbol_async(types.DocumentSymbolParams(doc(uri)))

    symbols = talk(folder, conversation)
    terms = sorted((e for e in read["entries"].values() if e["path"] == MODELS), key=lambda e: e["line"])
    assert [(s.name, s.detail, s.selection_range.start.line + 1) for s in symbols] == \
        [(e["key"], e["title"], e["line"]) for e in terms]


def test_a_folder_without_a_dictionary_answers_nothing_and_says_why(tmp_path):
    (tmp_path / "notes.tex").write_text("Some \\gls{x} text.\n", encoding="utf-8")

    async def conversation(s):
        uri = await s.open(tmp_path / "notes.tex")
        at = types.Position(0, 11)
        return (await s.client.text_document_hover_async(types.HoverParams(doc(uri), at)),
                await s.client.text_document_completion_async(types.CompletionParams(doc(uri), at)), s.logged)

    hover, completion, logged = talk(tmp_path, conversation)
    assert (hover, completion) == (None, None)
    assert any("no dictionary in" in m for m in logged)


def test_the_server_takes_the_dictionary_glossary_build_takes(tmp_path):
    """One rule (glossary.readers.latex.config.sources_in) for the language server and `glossary build`:
    dictionary.yaml before another YAML file, a YAML file before the main .tex file."""
    root = tmp_path / "d"
    shutil.copytree(FIXTURE, root)        # dictionary.yaml and editions.yaml
    assert lspindex.find(root).source == cli.find_source(root).resolve() == (root / "dictionary.yaml").resolve()
    (root / "dictionary.yaml").unlink()
    assert lspindex.find(root).source == cli.find_source(root).resolve() == (root / "editions.yaml").resolve()
    (root / "editions.yaml").unlink()
    assert lspindex.find(root).source == cli.find_source(root).resolve() == (root / "TinyDict_Main.tex").resolve()
