"""A language client for `python -m glossary.lsp`, as an editor is one: the server a subprocess, LSP over
its stdin and stdout (pygls's LanguageClient). tests/test_lsp.py and scripts/bench_lsp.py drive the
server through it.

    async with Session(folder) as s:
        uri = await s.open(path)
        await s.change(uri, text)                       # the whole new text, unsaved
        diagnostics = await s.diagnostics(uri, lambda ds: ..., timeout=10)
        await s.client.text_document_hover_async(...)   # any request of pygls's client
"""
import asyncio
import os
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls import uris
from pygls.lsp.client import LanguageClient

SRC = Path(__file__).resolve().parents[1]


class Session:
    """One server and the client connected to it; every publishDiagnostics kept, by URI, with the
    time it arrived (time.perf_counter())."""

    def __init__(self, folder, source=None, python=sys.executable, args=()):
        self.folder, self.source, self.python, self.args = Path(folder), source, python, list(args)
        self.client = LanguageClient("glossary-client", "1")
        self.published = {}          # uri -> [(time, [Diagnostic])]
        self.arrived = asyncio.Condition()
        self.versions = {}

        self.logged = []             # the server's window/logMessage texts

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def logged(params):
            self.logged.append(params.message)

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        async def published(params):
            async with self.arrived:
                self.published.setdefault(params.uri, []).append((time.perf_counter(), params.diagnostics))
                self.arrived.notify_all()

    async def __aenter__(self):
        env = dict(os.environ, PYTHONPATH=str(SRC))
        await self.client.start_io(self.python, "-m", "glossary.lsp", *self.args, env=env, cwd=str(self.folder))
        folder = uris.from_fs_path(str(self.folder))
        await self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=folder,
            workspace_folders=[types.WorkspaceFolder(uri=folder, name=self.folder.name)],
            initialization_options={"source": str(self.source)} if self.source else None))
        self.client.initialized(types.InitializedParams())
        return self

    async def __aexit__(self, *exc):
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    async def open(self, path):
        path = Path(path).resolve()
        uri = uris.from_fs_path(str(path))
        self.versions[uri] = 1
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="latex", version=1, text=path.read_text(encoding="utf-8"))))
        return uri

    async def change(self, uri, text):
        """Replace the buffer's whole text (not saved); the time it was sent."""
        self.versions[uri] += 1
        sent = time.perf_counter()
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            [types.TextDocumentContentChangeWholeDocument(text=text)]))
        return sent

    async def save(self, uri, text):
        """Write the buffer's text to its file and say so (didSave); the time it was sent."""
        Path(uris.to_fs_path(uri)).write_text(text, encoding="utf-8")
        sent = time.perf_counter()
        self.client.text_document_did_save(types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))
        return sent

    async def diagnostics(self, uri, wanted=lambda ds: True, after=0.0, timeout=30):
        """The first diagnostics of `uri` published after `after` that `wanted` accepts, and their
        time: (time, [Diagnostic]); TimeoutError when none comes."""
        async def found():
            async with self.arrived:
                while True:
                    for at, ds in self.published.get(uri, []):
                        if at > after and wanted(ds):
                            return at, ds
                    await self.arrived.wait()
        return await asyncio.wait_for(found(), timeout)

    def position(self, uri, line, character):
        return types.TextDocumentPositionParams(types.TextDocumentIdentifier(uri),
                                                types.Position(line=line, character=character))


def where(text, needle, shift=0):
    """(line, character), 0-based, of the first `needle` in text, `shift` characters into it."""
    offset = text.index(needle) + shift
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)
