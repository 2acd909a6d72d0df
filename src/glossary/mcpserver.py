"""An MCP server over a built dictionary site (issue 24, item 3): read-only, every edition.

    python -m glossary.mcpserver [--site DIR]     # MCP over stdio; DIR defaults to ./site

Tools: `editions` (titles, sections, counts), `list_terms` (by section, by edition), `search` (the
site's own lunr index, ranked as its search box ranks), `lookup` (a term's Markdown, math as TeX,
cross-references as glossary:// links, its references formatted), `related` (See also, Referenced
by) and `cite` (BibTeX and a formatted line).  Each term is also a resource,
glossary://<edition>/<slug>, its Markdown.  What it reads and how is glossary.mcpsite; here the
MCP SDK's wiring: a request the site cannot answer (an unknown term, edition or section, no site
at all) is a tool error or a resource error whose message says what to ask instead."""
import argparse
import functools
import sys
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp.server.mcpserver.resources.types import FunctionResource
from mcp_types import ToolAnnotations

from glossary.mcpsite import SCHEME, Site, SiteError

# Every tool only reads the site: a client may call them without asking its user.
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


def answer(fn):
    """A tool whose SiteError reaches the client as a tool error with its message."""
    @functools.wraps(fn)
    def tool(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except SiteError as err:
            raise ToolError(str(err)) from None
    return tool


def instructions(site):
    editions = ", ".join(f"{lang} ({ed.title}, {len(ed.rows)} terms)" for lang, ed in site.editions.items())
    return (f"A dictionary of terms, read-only. Editions: {editions}; {site.default} when none is named. "
            "Find a term with `search` (or `list_terms`), read it with `lookup` (or the resource "
            f"{SCHEME}://<edition>/<slug>), follow `related`, and `cite` it.")


def server(folder):
    """The MCP server over the site in `folder`; one that answers every call with how to build a
    site when there is none (a client shows a tool's message, not a server that exited)."""
    try:
        site, problem = Site(folder), None
    except SiteError as err:
        site, problem = None, str(err)
        print(problem, file=sys.stderr)
    mcp = MCPServer("glossary", title="Dictionary", instructions=instructions(site) if site else problem,
                    log_level="WARNING")

    def opened():
        if site is None:
            raise SiteError(problem)
        return site

    @mcp.tool(annotations=READ_ONLY)
    @answer
    def editions() -> dict[str, Any]:
        """The site's editions: for each its language code, title, number of terms and sections
        ({key: title}); the first is the one the other tools use when no edition is named."""
        s = opened()
        sections = s.sections()
        return {lang: {"title": ed.title, "terms": len(ed.rows), "sections": sections[lang]}
                for lang, ed in s.editions.items()}

    @mcp.tool(annotations=READ_ONLY)
    @answer
    def list_terms(section: str | None = None, edition: str | None = None) -> list[dict[str, Any]]:
        """Every term (slug, name, edition, section, abstract, resource URI), in the site's order.
        section: a section's key or title (see `editions`); edition: a language code such as "en"
        or "de" (none: every edition)."""
        return opened().terms(section, edition)

    @mcp.tool(annotations=READ_ONLY)
    @answer
    def search(query: str, edition: str | None = None, limit: int = 10) -> list[dict[str, Any]]:
        """Search one edition with the site's own index, ranked as its search box ranks them: a
        name typed whole first, then names starting with the words, then names holding them, then
        matches in the text.  Returns slug, name, section, summary and resource URI of each."""
        return opened().search(query, edition, limit)

    @mcp.tool(annotations=READ_ONLY)
    @answer
    def lookup(term: str, edition: str | None = None) -> str:
        """A term's text as Markdown: math as TeX, cross-references as glossary://<edition>/<slug>
        links, its references formatted at the end.  term: its slug, key or name."""
        return opened().markdown(term, edition)

    @mcp.tool(annotations=READ_ONLY)
    @answer
    def related(term: str, edition: str | None = None) -> dict[str, Any]:
        """The terms a term's page lists under See also and under Referenced by (the terms whose
        text refers to it), each with its name, abstract and resource URI."""
        return opened().related(term, edition)

    @mcp.tool(annotations=READ_ONLY)
    @answer
    def cite(term: str, edition: str | None = None) -> dict[str, Any]:
        """How to cite a term's entry: its BibTeX record as the site publishes it and the line the
        site's reference style (IEEE) makes of it."""
        return opened().cite(term, edition)

    @mcp.resource(f"{SCHEME}://{{edition}}/{{slug}}", name="term", mime_type="text/markdown",
                  description="A term's Markdown (as the lookup tool gives it)")
    def term(edition: str, slug: str) -> str:
        try:
            return opened().markdown(slug, edition)
        except SiteError as err:
            raise ResourceNotFoundError(str(err)) from None

    # Each term listed by its own URI too, so that a client can browse them.
    for ed in site.editions.values() if site else ():
        for row in ed.rows:
            mcp.add_resource(FunctionResource(
                uri=ed.uri(row["slug"]), name=f"{ed.lang}/{row['slug']}", title=row["name"],
                description=row.get("abstract") or None, mime_type="text/markdown",
                fn=functools.partial(site.markdown, row["slug"], ed.lang)))
    return mcp


def main(argv=None):
    parser = argparse.ArgumentParser(prog="glossary mcp", description="An MCP server (stdio) over a built "
                                     "dictionary site: its terms, search, related terms and citations.")
    parser.add_argument("--site", default="site", type=Path,
                        help="the built site's folder (holding terms.json; default: ./site)")
    args = parser.parse_args(argv)
    server(args.site).run("stdio")


if __name__ == "__main__":
    main()
