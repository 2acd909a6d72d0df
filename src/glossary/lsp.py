"""`glossary lsp`: a language server for a glossaries-extra dictionary, over stdio (pygls, lsprotocol).

    python -m glossary.lsp [--source dictionary.yaml]

It finds the dictionary in the workspace folder (glossary.lspindex.find: the YAML file that names a
main:, or a main .tex file; the client's initializationOptions {"source": ...} or --source name
another) and answers from the project's own reader (glossary.lspdesk):

- diagnostics: the build's mistakes, in its words, on every edit of an open file (the unsaved text
  is what is checked), and the reader's notes on the constructs it does not know;
- completion of \\gls-family keys (name and summary), citation keys (author, year, title), \\ref
  labels, macros of the macro files and type= sections;
- hover (a term's summary, a citation's formatted reference, a macro's definition, a label's
  number), go to definition, references ("Referenced by"), rename of a key across every edition,
  and the terms of a file as its symbols.

docs/lsp.md tells how to hook it into an editor.
"""
import argparse
import asyncio
import atexit
import logging
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lsprotocol import types
from pygls import uris
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer

from glossary.entries import EntryError
from glossary.lspdesk import Desk
from glossary.lspindex import find, range_of

LOG = logging.getLogger(__name__)
NAME = "glossary"
VERSION = "1"
TRIGGERS = ["{", ",", "\\", "="]
# Seconds without an edit before the translations are checked again after an edit of the base.
IDLE = 0.5
# The kinds of Mistake that are notes, not mistakes: the reader's constructs it does not know.
NOTES = ("unknown", "note")
NOTE = types.DiagnosticSeverity.Information
COMPLETION_KIND = {"gls": types.CompletionItemKind.Reference, "cite": types.CompletionItemKind.Reference,
                   "ref": types.CompletionItemKind.Reference, "macro": types.CompletionItemKind.Function,
                   "type": types.CompletionItemKind.EnumMember}


class GlossaryServer(LanguageServer):
    """The server: a Desk, the open buffers, and one worker thread that checks editions one at a
    time (keystrokes that come while a check runs are coalesced into the next one)."""

    def __init__(self):
        super().__init__(NAME, VERSION, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.desk, self.source, self.folder, self.options = None, None, None, None
        self.worker = ThreadPoolExecutor(max_workers=1)
        # TeX's runs (a saved file's pictures) take seconds: a worker of their own, and a cache of the
        # compiled pictures for the session
        self.tex = ThreadPoolExecutor(max_workers=1)
        self.cache = None
        self.pending, self.later, self.task, self.wake = [], [], None, asyncio.Event()
        self.shown = {}          # path -> {edition's lang: [Diagnostic]}
        self.lines = {}          # path -> (text, its lines), for positions in the client's units

    def start(self, folder, options):
        source = (options or {}).get("source") if isinstance(options, dict) else None
        try:
            project = find(folder, source or self.source) if folder else None
        except (OSError, KeyError, TypeError, ValueError) as err:     # a YAML file that does not parse
            LOG.warning("glossary: no dictionary: %s", err)
            project = None
        if project is None:
            self.window_log_message(types.LogMessageParams(
                types.MessageType.Warning, f"glossary: no dictionary in {folder} (no YAML file naming main:, no "
                                           "main .tex file); give one with initializationOptions.source"))
            return
        self.window_log_message(types.LogMessageParams(
            types.MessageType.Info, f"glossary: the dictionary of {project.source} ({len(project.editions)} "
                                    "translations)"))
        overlay = self.desk.overlay if self.desk else {}
        self.desk = Desk(project)
        self.desk.overlay.update(overlay)
        self.pending, self.later = [], []
        self.schedule(self.desk.editions)

    # --- diagnostics --------------------------------------------------------------------------

    def schedule(self, editions, later=()):
        """Check these editions next, in order, and `later` ones once the buffers have been still for
        IDLE seconds (a translation after an edit of its base: a keystroke need not wait for them)."""
        for edition in editions:
            if edition not in self.pending:
                self.pending.append(edition)
            if edition in self.later:
                self.later.remove(edition)
        self.later += [e for e in later if e not in self.later and e not in self.pending]
        self.wake.set()
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    async def run(self):
        loop = asyncio.get_running_loop()
        while self.pending or self.later:
            if not self.pending:
                self.wake.clear()
                try:
                    await asyncio.wait_for(self.wake.wait(), IDLE)
                    continue
                except asyncio.TimeoutError:
                    self.pending.append(self.later.pop(0))
            edition = self.pending.pop(0)
            start = time.perf_counter()
            try:
                await loop.run_in_executor(self.worker, self.desk.check, edition, dict(self.desk.overlay))
            except Exception:       # a reader's bug must not end the checks of the keystrokes to come
                LOG.exception("checking the %s edition", edition.lang)
                continue
            checked = time.perf_counter()
            self.publish(edition)
            LOG.info("%s edition: checked in %.0f ms, published in %.0f ms", edition.lang,
                     (checked - start) * 1000, (time.perf_counter() - checked) * 1000)

    async def draw(self, uri):
        """After a save: the pictures of the saved file's terms compiled, their mistakes published."""
        path = Path(uris.to_fs_path(uri)).resolve()
        edition = self.desk.edition_of(path)
        if self.cache is None:      # made at the first save, not when a command imports this module
            self.cache = tempfile.mkdtemp(prefix="glossary-lsp-")
            atexit.register(shutil.rmtree, self.cache, True)
        try:
            await asyncio.get_running_loop().run_in_executor(self.tex, self.desk.draw, edition, path, self.cache)
        except Exception:       # as run(): the checks go on
            LOG.exception("compiling the pictures of %s", path)
            return
        self.publish(edition)

    def changed(self, uri):
        """A buffer changed: its edition is checked first; an edit of the base edition can change
        what its translations may refer to, so they follow."""
        path = Path(uris.to_fs_path(uri)).resolve()
        edition = self.desk.edition_of(path)
        self.schedule([edition], self.desk.editions[1:] if edition.is_base else [])

    def publish(self, edition):
        found = {}
        for path, mistakes in self.desk.diagnostics(edition).items():
            text = self.text_of(path)
            found[path] = [diagnostic(m, text, lambda a, b, p=path: self.span(p, a, b)) for m in mistakes]
        for path, line, construct, count in self.desk.unknown(edition):
            rows = self.text_of(path).split("\n")
            row = rows[line - 1] if line <= len(rows) else ""
            found.setdefault(path, []).append(types.Diagnostic(
                self.span(path, (line - 1, len(row) - len(row.lstrip())), (line - 1, len(row))),
                f"the reader does not know {construct}: the site shows it as text ({count} in the dictionary, "
                "this is the first)", severity=NOTE, source=NAME, code="unknown"))
        for path in set(found) | {p for p, by in self.shown.items() if edition.lang in by}:
            self.shown.setdefault(path, {})[edition.lang] = found.get(path, [])
            shown = [d for diagnostics in self.shown[path].values() for d in diagnostics]
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uris.from_fs_path(str(path)), shown))

    def text_of(self, path):
        text = self.desk.overlay.get(str(path))
        if text is not None:
            return text
        try:
            return Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return ""

    # --- positions ----------------------------------------------------------------------------

    def at(self, uri, position):
        """(path, offset in its index) of a client position, or (path, None) when it is not indexed."""
        path = Path(uris.to_fs_path(uri)).resolve()
        index = self.desk.index(path) if self.desk else None
        if index is None:
            return path, None
        line, character = self.ours(path, position)
        return path, index.offset(line, character)

    # The server counts columns in characters, the client in its position encoding's units (UTF-16's
    # unless it offers another): they differ only on a line with a character outside the BMP.

    def lines_of(self, path):
        text = self.desk.overlay.get(str(path))
        if text is None:
            index = self.desk.edition_of(path).files.get(Path(path))
            text = index.text if index is not None else self.text_of(path)
        cached = self.lines.get(path)
        if cached is None or cached[0] is not text:
            cached = self.lines[path] = (text, text.split("\n"))
        return cached[1]

    def ours(self, path, position):
        """(line, character) of a client's Position."""
        found = self.workspace.position_codec.position_from_client_units(self.lines_of(path), position)
        return found.line, found.character

    def theirs(self, path, line, character):
        """The client's Position of a (line, character)."""
        return self.workspace.position_codec.position_to_client_units(self.lines_of(path),
                                                                      types.Position(line, character))

    def span(self, path, start, end):
        """The client's Range of two (line, character)."""
        return types.Range(self.theirs(path, *start), self.theirs(path, *end))

    def location(self, found):
        path, start, end = found
        return types.Location(uris.from_fs_path(str(path)), self.span(path, start, end))


def diagnostic(mistake, text, span):
    line, start, end = range_of(mistake, text)
    term = f"term {mistake.term!r}: " if mistake.term else ""
    where = f"{mistake.edition} edition: " if mistake.edition else ""
    return types.Diagnostic(span((line, start), (line, end)),
                            f"{where}{term}{mistake.what}" + (f"; {mistake.fix}" if mistake.fix else ""),
                            severity=NOTE if mistake.kind.startswith(NOTES) else types.DiagnosticSeverity.Error,
                            source=NAME, code=mistake.kind)


server = GlossaryServer()


@server.feature(types.INITIALIZE)
def initialize(ls, params):
    folders = params.workspace_folders or []
    folder = uris.to_fs_path(folders[0].uri) if folders else \
        (uris.to_fs_path(params.root_uri) if params.root_uri else params.root_path)
    ls.folder, ls.options = folder, params.initialization_options


@server.feature(types.INITIALIZED)
def initialized(ls, params):
    ls.start(ls.folder, ls.options)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls, params):
    if ls.desk:
        ls.desk.overlay[str(Path(uris.to_fs_path(params.text_document.uri)).resolve())] = params.text_document.text
        ls.changed(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls, params):
    if ls.desk:
        LOG.info("change of %s", params.text_document.uri)
        document = ls.workspace.get_text_document(params.text_document.uri)
        ls.desk.overlay[str(Path(uris.to_fs_path(document.uri)).resolve())] = document.source
        ls.changed(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls, params):
    if ls.desk and Path(uris.to_fs_path(params.text_document.uri)).resolve() == ls.desk.project.source:
        ls.start(ls.folder, ls.options)     # the YAML file: its editions may have changed
    elif ls.desk:
        ls.changed(params.text_document.uri)
        asyncio.get_running_loop().create_task(ls.draw(params.text_document.uri))


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls, params):
    if ls.desk:
        ls.desk.overlay.pop(str(Path(uris.to_fs_path(params.text_document.uri)).resolve()), None)
        ls.changed(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=TRIGGERS,
                                                                          resolve_provider=True))
def completion(ls, params):
    if not ls.desk:
        return None
    path = Path(uris.to_fs_path(params.text_document.uri)).resolve()
    document = ls.workspace.get_text_document(params.text_document.uri)
    here = ls.workspace.position_codec.position_from_client_units(document.lines, params.position)
    row, character = here.line, here.character
    line = document.lines[row] if row < len(document.lines) else ""
    found = ls.desk.candidates(path, line[:character])
    if found is None:
        return None
    kind, prefix, items = found
    start = ls.workspace.position_codec.position_to_client_units(
        document.lines, types.Position(row, character - len(prefix)))
    edit_range = types.Range(start, params.position)
    return types.CompletionList(is_incomplete=False, items=[
        types.CompletionItem(label, kind=COMPLETION_KIND[kind], detail=detail, documentation=documentation,
                             filter_text=label, text_edit=types.TextEdit(edit_range, label),
                             data={"kind": kind, "key": label, "path": str(path)})
        for label, detail, documentation in items])


@server.feature(types.COMPLETION_ITEM_RESOLVE)
def completion_resolve(ls, item):
    data = item.data or {}
    if ls.desk and data.get("kind") == "gls":
        text = ls.desk.term_text(ls.desk.edition_of(data["path"]), data["key"])
        if text:
            item.documentation = types.MarkupContent(types.MarkupKind.Markdown, text)
    return item


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls, params):
    path, offset = ls.at(params.text_document.uri, params.position)
    found = ls.desk.hover(path, offset) if offset is not None else None
    if not found:
        return None
    text, start, end = found
    index = ls.desk.index(path)
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text),
                       ls.span(path, index.line_column(start), index.line_column(end)))


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls, params):
    path, offset = ls.at(params.text_document.uri, params.position)
    return [ls.location(x) for x in ls.desk.definition(path, offset)] if offset is not None else None


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
def references(ls, params):
    path, offset = ls.at(params.text_document.uri, params.position)
    if offset is None:
        return None
    return [ls.location(x) for x in ls.desk.references(path, offset, params.context.include_declaration)]


@server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
def prepare_rename(ls, params):
    path, offset = ls.at(params.text_document.uri, params.position)
    index, place = ls.desk.place_at(path, offset) if offset is not None else (None, None)
    if place is None or place.kind not in ("gls", "define"):
        return None
    return ls.span(path, index.line_column(place.start), index.line_column(place.end))


@server.feature(types.TEXT_DOCUMENT_RENAME)
def rename(ls, params):
    path, offset = ls.at(params.text_document.uri, params.position)
    try:
        edits = ls.desk.rename(path, offset, params.new_name) if offset is not None else {}
    except EntryError as err:
        raise JsonRpcInvalidParams(str(err)) from None
    return types.WorkspaceEdit(changes={
        uris.from_fs_path(str(p)): [types.TextEdit(ls.span(p, a, b), new) for a, b, new in found]
        for p, found in edits.items()})


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbols(ls, params):
    path = Path(uris.to_fs_path(params.text_document.uri)).resolve()
    symbols = ls.desk.symbols(path) if ls.desk else []
    return [types.DocumentSymbol(
        name=key, detail=title, kind=types.SymbolKind.Key,
        range=ls.span(path, index.line_column(start), index.line_column(end)),
        selection_range=ls.span(path, index.line_column(place.start), index.line_column(place.end)))
        for key, title, start, end, index, place in symbols]


def main(argv=None):
    """Serve over stdio until the client exits."""
    parser = argparse.ArgumentParser(prog="glossary lsp", description="the dictionary's language server, over stdio")
    parser.add_argument("--source", help="the dictionary's YAML file or main .tex file (default: found in the "
                                         "workspace folder)")
    parser.add_argument("--log", help="a file to log to (the protocol runs on stdout)")
    args = parser.parse_args(argv)
    if args.log:
        logging.basicConfig(filename=args.log, level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    server.source = args.source and str(Path(args.source).resolve())
    server.start_io()


if __name__ == "__main__":
    main()
