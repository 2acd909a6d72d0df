"""The MCP server (issue 24 item 3, glossary.mcpserver, docs/mcp.md), spoken to through the MCP
SDK's own client over stdio, the server a subprocess as an MCP client starts it; on the fixture
dictionary with its German and Greek editions, built once: listing by section and edition, the
search's ranking (and the same results as the site's search box in Chromium), a look-up, related
terms, citing, a resource, and the errors."""
import json
import re
import sys

import anyio
import pytest
from conftest import REPO
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from test_browser import chromium
from test_editions import editions_built

from glossary.mcpsite import words


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return editions_built(tmp_path_factory)[1] / "site"


def session(site, talk):
    """Start `python -m glossary.mcpserver --site <site>` as a client does, connect the SDK's
    client over its stdin and stdout, and return what `await talk(client)` returns."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "glossary.mcpserver", "--site", str(site)],
                                   env={"PYTHONPATH": str(REPO / "src")}, cwd=str(REPO))

    async def run():
        with anyio.fail_after(120):
            async with Client(params) as client:
                return await talk(client)
    return anyio.run(run)


def result(call):
    """A tool's answer: its structured content (a list arrives wrapped as {"result": [...]})."""
    assert not call.is_error, call.content[0].text
    content = call.structured_content
    return content["result"] if set(content) == {"result"} else content


def terms(site, prefix=""):
    return json.loads((site / prefix / "terms.json").read_text(encoding="utf-8"))["terms"]


def test_list_terms_by_section_and_by_edition(site):
    async def talk(client):
        return ([result(await client.call_tool("list_terms", args)) for args in (
            {}, {"edition": "el"}, {"edition": "de", "section": "math"},
            {"edition": "de", "section": "Mathematische Werkzeuge"}, {"section": "models"})],
            result(await client.call_tool("editions")))
    (every, greek, german_math, by_title, models), editions = session(site, talk)
    english, german = terms(site), terms(site, "de")
    assert [(t["edition"], t["slug"]) for t in every] == (
        [("en", t["slug"]) for t in english] + [("de", t["slug"]) for t in german]
        + [("el", t["slug"]) for t in terms(site, "el")])
    assert [t["name"] for t in greek] == [t["name"] for t in terms(site, "el")]
    assert [t["slug"] for t in german_math] == [t["slug"] for t in german if t["section"] == "math"] != []
    assert by_title == german_math
    assert {t["section_title"] for t in german_math} == {"Mathematische Werkzeuge"}
    # A section only English has: the English terms of it, none invented for the other editions.
    assert [t["slug"] for t in models] == [t["slug"] for t in english if t["section"] == "models"] != []
    assert list(editions) == ["en", "de", "el"] and editions["de"]["terms"] == len(german)


def rank(name, typed):
    """The rule of the site's search box (templates/reading.js), written out again here: a name
    typed whole 0, a name starting with it 1, holding it from a word's start 2, else 3."""
    name, bare = " ".join(words(name)), " ".join(words(re.sub(r"\s*\([^()]*\)$", "", name)))
    return 0 if typed in (name, bare) else 1 if name.startswith(typed) else 2 if f" {typed}" in f" {name} " else 3


def test_search_ranks_as_the_site_ranks(site):
    async def talk(client):
        return [result(await client.call_tool("search", args)) for args in (
            {"query": "gradient"}, {"query": "gradient d"}, {"query": "Vektoren", "edition": "de"},
            {"query": "vectors"})]
    gradient, typing, german, plural = session(site, talk)
    names = [r["name"] for r in gradient]
    # Names typed whole, then names starting with the word, then the rest: gradient before
    # gradient descent, both before the terms that only mention a gradient.
    assert names[:2] == ["gradient", "gradient descent (GD)"] and len(names) > 2
    ranks = [rank(n, "gradient") for n in names]
    assert ranks == sorted(ranks) and ranks[-1] == 3
    assert typing[0]["name"] == "gradient descent (GD)"           # "gradient d": GD's name starts so
    assert german[0]["slug"] == "vector" and german[0]["name"] == "Vektor"   # German stemming
    assert plural[0]["slug"] == "vector"
    assert all(r["uri"] == f"glossary://{r['edition']}/{r['slug']}" for r in gradient + german)


def test_search_answers_what_the_sites_search_box_shows(site):
    # The same queries typed into each edition's search box in Chromium (templates/reading.js).
    queries = {"en": ["gradient", "gradient d", "data", "loss", "vec", "GD", "learn"],
               "de": ["Vektoren", "Merkmal", "Daten", "Zahlen"]}

    async def talk(client):
        return {(lang, q): [r["name"] for r in result(await client.call_tool("search", {"query": q, "edition": lang}))]
                for lang, qs in queries.items() for q in qs}
    answers = session(site, talk)
    shown = {}
    with chromium() as browser:
        page = browser.new_context().new_page()
        for lang, qs in queries.items():
            for q in qs:
                page.goto((site / ("de" if lang == "de" else "") / "index.html").as_uri(), wait_until="load")
                page.fill("#search-input", q)
                page.wait_for_selector("#search-results:not([hidden]) li")
                shown[lang, q] = page.eval_on_selector_all("#search-results li .result-name",
                                                           "els => els.map(e => e.textContent)")
    assert answers == shown
    assert all(shown.values())


def test_lookup_gives_markdown_with_math_and_links_and_references(site):
    async def talk(client):
        return [(await client.call_tool("lookup", args)) for args in (
            {"term": "gradient"}, {"term": "Gradient"}, {"term": "gd"}, {"term": "datapoint", "edition": "de"},
            {"term": "Gradient Descent"}, {"term": "GD"})]
    gradient, by_name, gd, german, long_name, short_form = session(site, talk)
    # a name without its short form in parentheses, and the short form, find the term too
    assert long_name.content[0].text == short_form.content[0].text == gd.content[0].text
    text, source = gradient.content[0].text, (site / "terms" / "gradient.md").read_text(encoding="utf-8")
    assert by_name.content[0].text == text
    # The published Markdown, each cross-reference now a resource URI and nothing else changed.
    assert re.sub(r"\]\(([\w-]+)\.md\)", r"](glossary://en/\1)", source) == text
    assert "](glossary://en/gd)" in text and ".md)" not in text
    assert re.search(r"^\$\$.*\\nabla.*\$\$$", text, re.M | re.S)          # math as TeX
    assert re.search(r"^## References\n\n\[1\] .+", text, re.M)   # its references formatted
    # A picture's path is told from the site's root, where its file is.
    assert "](terms/gd/pictures/1.svg)" in gd.content[0].text
    # A German term's link to a term only English has goes to the English edition's term.
    german_text = german.content[0].text
    assert "](glossary://de/feature)" in german_text and "](glossary://en/gd)" in german_text


def test_related_terms_are_see_also_and_referenced_by(site):
    async def talk(client):
        return [result(await client.call_tool("related", {"term": slug, "edition": lang}))
                for lang, slug in (("en", "gd"), ("de", "vector"))]
    for (lang, prefix), related in zip((("en", ""), ("de", "de")), session(site, talk)):
        rows = terms(site, prefix)
        slug = related["term"]["slug"]
        row = next(t for t in rows if t["slug"] == slug)
        assert [r["slug"] for r in related["see_also"]] == row["see_also"] != []
        # Referenced by: the terms whose text links to this one.
        linking = sorted(t["slug"] for t in rows if t["slug"] != slug and f"]({slug}.md)" in
                         (site / prefix / t["markdown"]).read_text(encoding="utf-8"))
        assert sorted(r["slug"] for r in related["referenced_by"]) == linking != []
        assert {r["edition"] for r in related["see_also"] + related["referenced_by"]} == {lang}


def test_cite_gives_the_bibtex_record_and_a_formatted_line(site):
    async def talk(client):
        return result(await client.call_tool("cite", {"term": "vector", "edition": "de"}))
    cited = session(site, talk)
    row = next(t for t in terms(site, "de") if t["slug"] == "vector")
    assert cited["bibtex"] == row["bibtex"] and cited["key"] == "glossary:vector"
    url = re.search(r"\\url\{([^}]+)\}", row["bibtex"]).group(1)
    assert f"“{row['name']}.”" in cited["text"] and url in cited["text"] and "\\" not in cited["text"]


def test_each_term_is_a_resource(site):
    async def talk(client):
        listed = await client.list_resources()
        templates = await client.list_resource_templates()
        read = await client.read_resource("glossary://de/vector")
        looked = await client.call_tool("lookup", {"term": "vector", "edition": "de"})
        return listed, templates, read, looked
    listed, templates, read, looked = session(site, talk)
    every = {f"glossary://{lang}/{t['slug']}" for lang, prefix in (("en", ""), ("de", "de"), ("el", "el"))
             for t in terms(site, prefix)}
    assert {str(r.uri) for r in listed.resources} == every
    assert [t.uri_template for t in templates.resource_templates] == ["glossary://{edition}/{slug}"]
    content = read.contents[0]
    assert content.mime_type == "text/markdown" and content.text == looked.content[0].text
    assert content.text.startswith("# Vektor\n")


def test_an_unknown_term_edition_or_section_is_an_error_naming_the_closest(site):
    async def talk(client):
        calls = [await client.call_tool("lookup", {"term": "gradent"}),
                 await client.call_tool("related", {"term": "gd", "edition": "de"}),
                 await client.call_tool("search", {"query": "x", "edition": "fr"}),
                 await client.call_tool("list_terms", {"section": "physics", "edition": "en"})]
        try:
            await client.read_resource("glossary://de/gd")
        except MCPError as err:
            return calls, err
    (term, other_edition, edition, section), resource = session(site, talk)
    assert all(call.is_error for call in (term, other_edition, edition, section))
    assert "no term 'gradent' in the en edition; closest: gradient (gradient)" in term.content[0].text
    assert "no term 'gd' in the de edition; it is in the en edition" in other_edition.content[0].text
    assert "no edition 'fr' in this site; its editions: en, de, el" in edition.content[0].text
    assert "no section 'physics'" in section.content[0].text and "math (Mathematical Tools)" in section.content[0].text
    assert "no term 'gd' in the de edition" in resource.error.message and resource.error.code == -32602


def test_no_site_is_an_error_saying_how_to_build_one(tmp_path):
    async def talk(client):
        return await client.call_tool("search", {"query": "gradient"}), client.instructions
    call, instructions = session(tmp_path / "nowhere", talk)
    assert call.is_error
    message = call.content[0].text
    assert f"no built dictionary site at {tmp_path / 'nowhere'}" in message and "make site" in message
    assert "--site" in message and message.endswith(instructions)

