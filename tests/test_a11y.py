"""An axe-core audit (npm's axe-core, pinned in package.json, injected into Debian's Chromium) of
the pages a reader uses, in the light and the dark scheme: the index, the section pages, every
term page (figures, math and citations among them), the search with its results open and an open
preview of a cross-reference.  Zero violations; the audit itself is checked to fail on a missing
alt text and on a contrast below 4.5:1.  The axe helper is glossary.auditpage's, which the site audit
(glossary.audit, `make audit`, tests/test_audit.py) runs on every page."""
import pytest
from test_browser import chromium
from test_reading import reading_site

from glossary.auditpage import axe_violations as audit


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return reading_site(tmp_path_factory) / "site"


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def open_page(browser, url, scheme):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.goto(url, wait_until="load")
    return context, page


def pages_of(site):
    return ["index.html"] + sorted(p.relative_to(site).as_posix() for folder in ("sections", "terms")
                                   for p in (site / folder).glob("*.html"))


def audit_all(site, browser, scheme):
    """{page: its violations} of every page of the site, opened from disk in the colour scheme, one
    after another in one tab, as the site audit (glossary.audit) opens them: a context per page costs
    a renderer and axe-core's compile each time, 2.7 times the whole audit's time."""
    found = {}
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    try:
        page = context.new_page()
        for name in pages_of(site):
            page.goto((site / name).as_uri(), wait_until="load")
            found[name] = audit(page)
    finally:
        context.close()
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_has_no_violations(site, browser, scheme):
    found = audit_all(site, browser, scheme)
    assert {k: v for k, v in found.items() if v} == {}
    assert {"index.html", "sections/math.html", "terms/gd.html", "terms/gradient.html"} <= set(found)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_search_results_and_an_open_preview_have_no_violations(site, browser, scheme):
    context, page = open_page(browser, (site / "terms/vector.html").as_uri(), scheme)
    try:
        page.fill("#search-input", "gradient")
        page.wait_for_selector("#search-results:not([hidden]) li")
        page.keyboard.press("ArrowDown")
        assert audit(page) == []
        page.keyboard.press("Escape")
        page.locator(".prose a.xref[href='datapoint.html']").first.hover()
        page.locator("#preview").wait_for(state="visible")
        assert page.locator("#preview math").count() >= 1
        assert audit(page) == []
        page.locator("a.citation").first.focus()
        page.locator("#preview").wait_for(state="visible")
        assert audit(page) == []
    finally:
        context.close()


def test_the_audit_fails_on_a_missing_alt_text_and_a_low_contrast(site, browser):
    context, page = open_page(browser, (site / "index.html").as_uri(), "light")
    try:
        page.evaluate("""() => {
            const img = document.createElement('img'); img.src = 'favicon.svg';
            document.querySelector('main').append(img);
            const p = document.createElement('p'); p.textContent = 'faint'; p.style.color = '#959595';
            document.querySelector('main').append(p); }""")     # #959595 on the page's #fdfdfb: 2.9:1
        rules = {line.split(":")[0] for line in audit(page)}
        assert {"image-alt", "color-contrast"} <= rules
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_pages_with_demos_code_and_check_lines_have_no_violations(built, browser, scheme):
    """The repository's own entries (demo, figures, highlighted source, check lines, BibTeX)."""
    found = audit_all(built[0] / "site", browser, scheme)
    assert {k: v for k, v in found.items() if v} == {}
    assert "terms/attention.html" in found and "terms/multi-head-attention.html" in found
