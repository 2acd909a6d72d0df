"""glossary.pdfjoin on small PDFs made here with pikepdf: what a pdflatex run may hold besides the book's
usual pieces (tests/test_book.py joins those) comes through whole: names in any bytes, page labels with a
prefix, inherited page attributes, an outline; a small book opens in qpdf as in poppler."""
import subprocess

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name, String

from glossary import pdfjoin

NAMES = {"alpha": b"term:alpha", "accented": "term:\u00edndice".encode("utf-8"), "wide": b"\xfe\xff\x00w"}


def part(path, names, prefix, title):
    """A PDF of two pages under an intermediate page node that holds their /Resources and /MediaBox,
    a named destination on each page (`names`: their bytes), a link to the second, a label prefix and
    one outline item."""
    pdf = pikepdf.new()
    for text in (b"first", b"second"):
        pdf.add_blank_page(page_size=(200, 200))
        pdf.pages[-1].Contents = pdf.make_stream(b"BT /F1 12 Tf 20 100 Td (" + text + b") Tj ET")
    font = pdf.make_indirect(Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica))
    node = pdf.Root.Pages
    node.Resources = Dictionary(Font=Dictionary(F1=font))
    node.MediaBox = Array([0, 0, 200, 200])
    for page in pdf.pages:
        del page.obj["/MediaBox"]
        if "/Resources" in page.obj:
            del page.obj["/Resources"]
    pairs = []
    for page, key in zip(pdf.pages, names):
        pairs += [String(key), pdf.make_indirect(Array([page.obj, Name.XYZ, 0, 200, None]))]
    pdf.Root.Names = Dictionary(Dests=pdf.make_indirect(Dictionary(Names=Array(pairs))))
    pdf.pages[0].obj.Annots = Array([pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Link, Rect=Array([0, 0, 50, 50]),
        A=Dictionary(S=Name.GoTo, D=String(names[1]))))])
    pdf.Root.PageLabels = Dictionary(Nums=Array([0, Dictionary(S=Name.D, P=String(prefix))]))
    item = pdf.make_indirect(Dictionary(Title=String(title), A=Dictionary(S=Name.GoTo, D=String(names[0]))))
    outline = pdf.make_indirect(Dictionary(Type=Name.Outlines, First=item, Last=item, Count=1))
    item.Parent = outline
    pdf.Root.Outlines = outline
    pdf.save(path)
    return {"pdf": path, "nested": False, "undefined": set()}


def test_what_a_part_holds_comes_through(tmp_path):
    parts = [part(tmp_path / "one.pdf", [NAMES["alpha"], NAMES["accented"]], "A-", "One"),
             part(tmp_path / "two.pdf", [NAMES["wide"], b"term:beta"], "B-", "Two")]
    told = pdfjoin.join(parts, tmp_path / "book.pdf", store=tmp_path)
    with pikepdf.open(tmp_path / "book.pdf") as book:          # qpdf opens a small book too
        assert book.check_pdf_syntax() == []
        assert [len(p.get("/Contents").read_bytes()) > 0 for p in book.pages] == [True] * 4
        assert all(str(p.obj.MediaBox) and "/F1" in p.obj.Resources.Font for p in book.pages)
        tree = list(book.Root.Names.Dests.Names)
        keys = [bytes(k) for k in tree[::2]]
        # each name with the bytes its part gave it, sorted by them; each destination on its page
        assert keys == sorted([NAMES["alpha"], NAMES["accented"], NAMES["wide"], b"term:beta"])
        pages = [p.obj.objgen for p in book.pages]
        assert [pages.index(d[0].objgen) for d in tree[1::2]] == [
            {NAMES["alpha"]: 0, NAMES["accented"]: 1, NAMES["wide"]: 2, b"term:beta": 3}[k] for k in keys]
        link = book.pages[0].obj.Annots[0].A.D
        assert bytes(link) == NAMES["accented"] and bytes(link) in keys
        with book.open_outline() as found:
            assert [i.title for i in found.root] == ["One", "Two"]
    assert told == {str(String(k)) for k in keys}
    labels = subprocess.run(["pdfinfo", "-l", "4", str(tmp_path / "book.pdf")], capture_output=True, text=True)
    assert labels.returncode == 0 and "Syntax" not in labels.stderr, labels.stderr
    shown = subprocess.run(["pdftotext", str(tmp_path / "book.pdf"), "-"], capture_output=True, text=True)
    assert shown.stdout.split() == ["first", "second", "first", "second"] and not shown.stderr
    from pypdf import PdfReader
    assert PdfReader(str(tmp_path / "book.pdf"), strict=True).page_labels == ["A-1", "A-2", "B-1", "B-2"]


def test_parts_named_alike_do_not_share_a_kept_segment(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    parts = [part(tmp_path / "a/piece.pdf", [b"x:1", b"x:2"], "", "A"),
             part(tmp_path / "b/piece.pdf", [b"y:1", b"y:2"], "", "B")]
    with pytest.raises(ValueError, match="named alike"):
        pdfjoin.join(parts, tmp_path / "book.pdf", store=tmp_path)
    assert pdfjoin.join(parts, tmp_path / "book.pdf") == {"x:1", "x:2", "y:1", "y:2"}


def test_a_tagged_part_is_refused_by_name(tmp_path):
    """A structure tree (a tagged PDF's) cannot be merged with the other parts': the join says which part."""
    one = part(tmp_path / "one.pdf", [b"x:1", b"x:2"], "", "One")
    with pikepdf.open(one["pdf"], allow_overwriting_input=True) as pdf:
        tree = pdf.make_indirect(Dictionary(Type=Name.StructTreeRoot))
        tree.K = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.Document, P=tree))
        pdf.Root.StructTreeRoot = tree
        pdf.save(one["pdf"])
    with pytest.raises(ValueError, match="one.pdf: a tagged PDF"):
        pdfjoin.join([one, part(tmp_path / "two.pdf", [b"y:1", b"y:2"], "", "Two")], tmp_path / "book.pdf")
