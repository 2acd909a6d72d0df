"""The multi-head-attention entry through the whole pipeline (the session's one clean
build): its page, CSVs, figures and notebook; the index; links between the two entries."""
import html as htmllib
import json
import re

import nbformat
import yaml

from glossary import batchfiles

SLUG = "multi-head-attention"


def front_matter(root, slug):
    return yaml.safe_load((root / "entries" / slug / "entry.md").read_text().split("---\n")[1])


def test_page_csvs_figures_and_notebook_exist(built):
    root, ran = built
    terms = root / "site/terms"
    meta = front_matter(root, SLUG)
    assert (terms / f"{SLUG}.html").is_file() and (terms / f"{SLUG}.py").is_file()
    assert (terms / SLUG / "multi_head_attention.png").read_bytes()[:4] == b"\x89PNG"
    data = terms / SLUG / "data"
    assert sorted(p.name for p in data.iterdir()) == sorted(c["name"] for c in meta["csv"])
    for c in meta["csv"]:
        assert (data / c["name"]).read_text().splitlines()[0] == ",".join(c["columns"])
    for name in ("mha-attention", "mha-ffn-loss"):
        pdf = (terms / SLUG / "figures" / f"{name}.pdf").read_bytes()
        assert pdf.startswith(b"%PDF") and b"/CreationDate" not in pdf
        assert (terms / SLUG / "figures" / f"{name}.svg").read_text().lstrip().startswith("<?xml")
        assert (terms / SLUG / "figures" / f"{name}.png").read_bytes()[:4] == b"\x89PNG"
    nb = nbformat.read(terms / f"{SLUG}.ipynb", as_version=4)
    nbformat.validate(nb)
    assert nb.cells[0]["id"] == "title" and "Multi-head attention" in nb.cells[0]["source"]
    assert "b-train" in [c["id"] for c in nb.cells]


def test_page_quotes_the_accuracy(built):
    root, _ = built
    facts = json.loads((root / f"results/{SLUG}/facts/train.json").read_text())
    text = re.sub(r"\s+", " ", (root / f"site/terms/{SLUG}.html").read_text())
    assert f"{facts['n_correct']} of the {facts['n_cases']} cases come out right" in text
    assert f"(accuracy {facts['accuracy']:.2f})" in text
    assert f"{facts['final_loss']:.4f}" in text
    for raw in ("{{ n_words }}", "format(accuracy)", "{{ n_cases }}"):
        assert raw not in text, f"{raw} of the prose was not filled in"


def test_page_shows_both_figures_and_links_the_csvs(built):
    root, _ = built
    page = (root / f"site/terms/{SLUG}.html").read_text()
    for name in ("mha-attention", "mha-ffn-loss"):
        assert f'<img src="{SLUG}/figures/{name}.svg"' in page
    for csv in ("mha_attention.csv", "mha_ffn_loss.csv"):
        assert f'href="{SLUG}/data/{csv}"' in page


def test_index_lists_both_entries_alphabetically_with_summaries(built):
    root, _ = built
    index = (root / "site/index.html").read_text()
    rows = re.findall(r'<dt><a href="terms/([a-z0-9-]+)\.html">(.*?)</a></dt>\s*<dd>(.*?)</dd>', index, re.S)
    titles = [htmllib.unescape(title) for _, title, _ in rows]
    assert titles == sorted(titles, key=str.lower)
    listed = {slug: htmllib.unescape(summary) for slug, _, summary in rows}
    for slug in ("attention", SLUG):
        assert listed[slug] == front_matter(root, slug)["summary"]
    slugs = [slug for slug, _, _ in rows]
    assert slugs.index("attention") < slugs.index(SLUG)


def test_the_two_pages_link_each_other(built):
    root, _ = built
    for page, other, title in (("attention", SLUG, "Multi-head attention"), (SLUG, "attention", "Attention")):
        html = (root / f"site/terms/{page}.html").read_text()
        see_also = re.search(r'<h2 id="see-also"><a class="self" href="#see-also">See also</a></h2>\s*'
                             r'<ul class="see-also">(.*?)</ul>', html, re.S)
        assert see_also, page
        assert f'<a href="{other}.html">{title}</a>' in see_also.group(1)
        assert (root / "site/terms" / f"{other}.html").is_file()


def test_the_prose_links_attention_and_uses_the_notation(built):
    root, _ = built
    html = (root / f"site/terms/{SLUG}.html").read_text()
    assert '<a href="attention.html" class="xref">attention head</a>' in html
    assert '<mi mathvariant="normal">softmax</mi>' in html          # \softmax from notation.sty
    latex = batchfiles.read_build(root)[SLUG]["latex"]
    assert r"\glossaryref{attention}{attention head}" in latex and r"\operatorname{softmax}" in latex
