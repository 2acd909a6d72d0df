"""Pages cut out of one pdflatex run, each part a PDF whose bytes depend on its own pages only.

Many pictures or documents typeset in one run and split afterwards save pdflatex's fixed cost per
document, but a page cut out as it is carries traces of its neighbours: pdfTeX subsets each Type 1
font once per run, for the glyphs of all pages (and tags it after that set), names resources after
its internal counters (/F24, /Fm3), and pgf shares one growing ExtGState dictionary between pages;
the page tree's inherited attributes, links to other pages, named destinations, outlines, page labels
and a random /ID would come along.  `split` writes each part with pikepdf (qpdf) from its pages
alone: fonts re-subset to the glyphs its pages (and the forms they draw) show (glossary.type1), resources renamed in
the order of first use, only the destinations, outlines and labels that lie in it, no dates, the
/ID computed from the content.  The same pages typeset beside other neighbours give the same bytes.
"""
import os
from pathlib import Path

import pikepdf
from pikepdf import Array, Dictionary, Name

from glossary import inprocess, type1

# Resource categories renamed per content stream, with the prefix of their new names.
CATEGORIES = {"/Font": "F", "/XObject": "X", "/ExtGState": "G", "/Shading": "Sh", "/ColorSpace": "CS",
              "/Pattern": "P", "/Properties": "Pr"}
# Operators naming a resource: (category, index of the operand; -1 the last).
NAMING = {"Tf": ("/Font", 0), "Do": ("/XObject", 0), "gs": ("/ExtGState", 0), "sh": ("/Shading", 0),
          "cs": ("/ColorSpace", 0), "CS": ("/ColorSpace", 0), "scn": ("/Pattern", -1),
          "SCN": ("/Pattern", -1), "BDC": ("/Properties", 1), "DP": ("/Properties", 1)}
DEVICE_SPACES = {"/DeviceGray", "/DeviceRGB", "/DeviceCMYK", "/Pattern"}
# Page keys rebuilt (or dropped) rather than copied: the rest (boxes, /Group, /Rotate) is copied,
# inherited ones looked up through the page tree.
REBUILT = {"/Type", "/Parent", "/Annots", "/Resources", "/Contents", "/B", "/StructParents"}
INHERITED = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")
# Annotation keys that point at other objects of the run (its page, popups, structure).
ANNOT_DROPPED = {"/P", "/Parent", "/Popup", "/StructParent"}
SAVE = {"deterministic_id": True, "static_id": False, "qdf": False, "linearize": False,
        "object_stream_mode": pikepdf.ObjectStreamMode.generate, "compress_streams": True,
        "stream_decode_level": pikepdf.StreamDecodeLevel.generalized, "recompress_flate": True,
        "normalize_content": False}


def split(pdf, parts):
    """Write each part of `pdf` ({"first": 1-based page, "last": page, "output": path, "info": {"Title":
    ..., "Author": ...} or None}) as its own PDF, atomically, its bytes a function of its pages alone."""
    with pikepdf.open(pdf) as source:
        names = named_destinations(source)
        type1.prefetch(embedded_fonts(source))
        for part in parts:
            write_part(source, names, part)


def embedded_fonts(source):
    """The PostScript names of the Type 1 programs the PDF embeds (without their subset tags)."""
    found = set()
    for obj in source.objects:
        if isinstance(obj, Dictionary) and obj.get("/Type") == Name.FontDescriptor and "/FontFile" in obj:
            found.add(str(obj.FontName)[1:].split("+", 1)[-1])
    return found


def page_count(pdf):
    with pikepdf.open(pdf) as source:
        return len(source.pages)


def named_destinations(source):
    """{name (str): the destination array} of the /Dests name tree and the catalog's old /Dests dict."""
    return {name: dest for name, (_, dest) in named_destination_bytes(source).items()}


def named_destination_bytes(source):
    """{name (as text, as glossary.links reads it): (its bytes, its destination array)} of the /Dests name
    tree and the catalog's old /Dests dictionary: a join writes each name back with the bytes it had
    (glossary.pdfjoin)."""
    found, root = {}, source.Root
    if "/Dests" in root:
        found.update({str(k)[1:]: (str(k)[1:].encode("utf-8"), v) for k, v in root.Dests.items()})

    def walk(node, depth):
        if depth > 64:
            return
        names = node.get("/Names")
        if isinstance(names, pikepdf.Array):
            items = list(names)
            for key, value in zip(items[::2], items[1::2]):
                found[str(key)] = (bytes(key), value)
        for kid in node.get("/Kids", []):
            walk(kid, depth + 1)
    if "/Names" in root and "/Dests" in root.Names:
        walk(root.Names.Dests, 0)
    return {k: (key, v.D if isinstance(v, Dictionary) else v) for k, (key, v) in found.items()}


def inherited(page, key):
    """The page's `key`, looked up through its /Parent chain; None if none sets it."""
    node, seen = page, 0
    while node is not None and seen < 64:
        if key in node:
            return node[key]
        node, seen = node.get("/Parent"), seen + 1
    return None


def copy(out, obj):
    """obj (of another Pdf) in `out`: indirect objects by qpdf's copier (shared ones once), direct
    containers rebuilt around them."""
    if isinstance(obj, (Dictionary, Array, pikepdf.Stream)) and obj.is_indirect:
        return out.copy_foreign(obj)
    if isinstance(obj, Dictionary):
        return Dictionary({k: copy(out, v) for k, v in obj.items()})
    if isinstance(obj, Array):
        return Array([copy(out, v) for v in obj])
    if isinstance(obj, pikepdf.String):
        return pikepdf.String(bytes(obj))
    return obj


def write_part(source, names, part):
    out = pikepdf.new()
    indices = range(part["first"] - 1, part["last"])
    pages = {}                                        # source page objgen: the part's page
    for i in indices:
        page = source.pages[i].obj
        new = Dictionary(Type=Name.Page)
        for key in INHERITED:
            value = inherited(page, key)
            if value is not None:
                new[key] = copy(out, value)
        for key, value in page.items():
            if key not in REBUILT and key not in INHERITED:
                new[key] = copy(out, value)
        contents = pikepdf.Stream(out, b"".join(s.read_bytes() + b"\n" for s in streams(page)))
        new.Contents = out.make_indirect(contents)
        out.pages.append(pikepdf.Page(new))
        pages[page.objgen] = out.pages[-1].obj
    referenced = set()
    for i in indices:
        annots = [a for a in (annotation(out, a, pages, referenced) for a in source.pages[i].obj.get("/Annots", []))
                  if a is not None]
        if annots:
            pages[source.pages[i].obj.objgen].Annots = Array(annots)
    Normaliser(out).run([p.obj for p in out.pages])
    outlines(out, source, names, pages, referenced)
    if "/OpenAction" in source.Root:
        action = source.Root.OpenAction
        view = action.get("/D") if isinstance(action, Dictionary) else action
        if isinstance(view, Array) and len(view) > 1:
            out.Root.OpenAction = Array([out.pages[0].obj, *[copy(out, v) for v in list(view)[1:]]])
    for key in ("/PageMode", "/PageLayout"):
        if key in source.Root and isinstance(source.Root[key], Name):
            out.Root[key] = source.Root[key]
    destinations(out, names, pages, referenced)
    labels(out, source, indices)
    if part.get("info"):
        out.trailer.Info = out.make_indirect(Dictionary({f"/{k}": pikepdf.String(str(v))
                                                         for k, v in sorted(part["info"].items())}))
    target = Path(part["output"])
    tmp = inprocess.temporary(target)
    renumbered(out).save(tmp, **SAVE)
    os.replace(tmp, target)


def renumbered(out):
    """out copied into a new Pdf, pages first: qpdf's copier numbers objects in the order it reaches
    them (dictionary keys sorted), where out's numbers follow the order they were made in, which the
    neighbours' objects copied along (then left unreferenced) shift; the writer keeps that order."""
    final = pikepdf.new()
    for page in out.pages:
        final.pages.append(page)
    for key, value in out.Root.items():
        if key not in ("/Type", "/Pages"):
            final.Root[key] = copy(final, value)
    if "/Info" in out.trailer:
        final.trailer.Info = final.copy_foreign(out.trailer.Info)
    return final


def streams(page):
    contents = page.get("/Contents")
    if contents is None:
        return []
    return list(contents) if isinstance(contents, Array) else [contents]


def target_page(dest, names):
    """The source page object a destination (array, name or string) points at, or None."""
    if isinstance(dest, (pikepdf.String, Name)):
        dest = names.get(str(dest).lstrip("/") if isinstance(dest, Name) else str(dest))
    if isinstance(dest, Dictionary):
        dest = dest.get("/D")
    if isinstance(dest, Array) and len(dest) and isinstance(dest[0], Dictionary):
        return dest[0]
    return None


def remap(out, dest, pages):
    """A destination array pointing at a source page as the part's (None when its page is not in it)."""
    page = dest[0]
    if page.objgen not in pages:
        return None
    return Array([pages[page.objgen], *[copy(out, v) for v in list(dest)[1:]]])


def annotation(out, annot, pages, referenced):
    """The part's copy of an annotation (None for a link to a page outside the part), the names it
    links to added to `referenced`."""
    new = Dictionary()
    for key, value in annot.items():
        if key in ANNOT_DROPPED:
            continue
        if key == "/Dest" or (key == "/A" and value.get("/S") == Name.GoTo):
            dest = value if key == "/Dest" else value.get("/D")
            if isinstance(dest, Array):
                dest = remap(out, dest, pages)
                if dest is None:
                    return None
            else:
                referenced.add(str(dest).lstrip("/") if isinstance(dest, Name) else str(dest))
                dest = copy(out, dest)
            value = dest if key == "/Dest" else Dictionary({k: (dest if k == "/D" else copy(out, v))
                                                            for k, v in value.items()})
        else:
            value = copy(out, value)
        new[key] = value
    return out.make_indirect(new)


def item_destination(item):
    if "/Dest" in item:
        return item.Dest
    action = item.get("/A")
    return action.get("/D") if isinstance(action, Dictionary) and action.get("/S") == Name.GoTo else None


def outlines(out, source, names, pages, referenced):
    """The source's outline items whose destinations lie in the part (a dropped item's kept children
    take its place), rebuilt as the part's /Outlines."""
    if "/Outlines" not in source.Root or "/First" not in source.Root.Outlines:
        return

    def kept(first, depth=0):
        found, item = [], first
        while item is not None and depth < 64:
            dest = item_destination(item)
            page = target_page(dest, names)
            children = kept(item.First, depth + 1) if "/First" in item else []
            if page is not None and page.objgen in pages:
                if isinstance(dest, Array):
                    dest = remap(out, dest, pages)
                else:
                    referenced.add(str(dest).lstrip("/") if isinstance(dest, Name) else str(dest))
                    dest = copy(out, dest)
                direct = "/Dest" in item
                found.append({"title": item.Title, "key": "/Dest" if direct else "/A",
                              "value": dest if direct else Dictionary(S=Name.GoTo, D=dest),
                              "open": int(item.get("/Count", 0)) >= 0, "children": children})
            else:
                found.extend(children)
            item = item.get("/Next")
        return found

    set_outline(out, kept(source.Root.Outlines.First))


def count(items):
    """Outline items shown: each item, and the descendants of open ones."""
    return sum(1 + (int(i.Count) if "/Count" in i and int(i.Count) > 0 else 0) for i in items)


def destinations(out, names, pages, referenced):
    """The named destinations the part links to and that lie in it, as its /Dests name tree."""
    kept = {}
    for name in sorted(referenced):
        dest = names.get(name)
        if isinstance(dest, Array) and len(dest) and dest[0].objgen in pages:
            kept[name] = remap(out, dest, pages)
    if kept:
        out.Root.Names = Dictionary(Dests=name_tree(out, kept))


def labels(out, source, indices):
    """The part's /PageLabels: each page's label in the source, as ranges of the part's own."""
    if "/PageLabels" not in source.Root:
        return
    ranges = sorted(pikepdf.NumberTree(source.Root.PageLabels).items())
    nums, last = [], None
    for j, i in enumerate(indices):
        start, style = max(((k, v) for k, v in ranges if k <= i), default=(0, Dictionary()), key=lambda r: r[0])
        label = (str(style.get("/S", "")), str(style.get("/P", "")), int(style.get("/St", 1)) + i - start)
        if last is None or label[:2] != last[:2] or label[2] != last[2] + 1:
            entry = Dictionary()
            if label[0]:
                entry.S = Name(label[0])
            if label[1]:
                entry.P = pikepdf.String(label[1])
            if label[2] != 1:
                entry.St = label[2]
            nums += [j, entry]
        last = label
    out.Root.PageLabels = Dictionary(Nums=Array(nums))


class Normaliser:
    """Renames the resources of the part's pages and forms by first use, and re-subsets their Type 1
    fonts to the glyphs they show."""

    def __init__(self, out):
        self.out = out
        self.done = set()          # objgens of forms and patterns already rewritten
        self.codes = {}            # font dict objgen: (font dict, set of codes shown)

    def run(self, pages):
        for page in pages:
            page.Contents.write(self.rewrite(page.Contents, page.get("/Resources", Dictionary()), page=True))
            page.Resources = self.resources
        fonts = {}
        for font, codes in self.codes.values():
            descriptor = font.get("/FontDescriptor")
            if font.get("/Subtype") == Name.Type1 and descriptor is not None and "/FontFile" in descriptor:
                fonts.setdefault(descriptor.FontFile.objgen, []).append((font, codes))
        for users in fonts.values():
            type1.resubset(users)
        for font, codes in self.codes.values():
            encoding = font.get("/Encoding")
            if isinstance(encoding, Dictionary) and "/Differences" in encoding:
                font.Encoding = differences(encoding, codes)

    def rewrite(self, holder, resources, page=False):
        """The content of holder (a page or form) with its resources renamed (self.resources: the new
        resource dictionary), fonts' codes recorded, forms and patterns it uses rewritten."""
        renamed = {c: {} for c in CATEGORIES}
        new, font, saved = [], None, []
        for instruction in pikepdf.parse_content_stream(holder):
            operands, operator = instruction
            op = str(operator)
            if op == "INLINE IMAGE":
                new.append(instruction)
                continue
            operands = list(operands)
            if page and not new and op in ("g", "G") and [float(o) for o in operands] == [0]:
                continue          # black, as a page starts: pdfTeX sets it twice on a run's first page
            if op == "q":
                saved.append(font)
            elif op == "Q":
                font = saved.pop() if saved else font
            elif op == "Tf" and operands:
                font = resources.get("/Font", Dictionary()).get(str(operands[0]))
            elif op in ("Tj", "TJ", "'", '"') and font is not None and operands:
                self.shown(font, operands[-1])
            if op in NAMING and operands:
                category, at = NAMING[op]
                if -len(operands) <= at < len(operands) and isinstance(operands[at], Name):
                    operands[at] = self.rename(resources, renamed, category, operands[at])
            new.append((operands, operator))
        self.resources = self.build(resources, renamed)
        return pikepdf.unparse_content_stream(new)

    def rename(self, resources, renamed, category, name):
        if category == "/ColorSpace" and str(name) in DEVICE_SPACES:
            return name
        table = resources.get(category)
        if table is None or str(name) not in table:
            return name
        names = renamed[category]
        if str(name) not in names:
            names[str(name)] = Name(f"/{CATEGORIES[category]}{len(names) + 1}")
            self.inner(table[str(name)])
        return names[str(name)]

    def inner(self, obj):
        """Rewrite a form XObject or tiling pattern (once) with its own resources."""
        if not isinstance(obj, pikepdf.Stream) or obj.objgen in self.done or "/Resources" not in obj:
            return
        if obj.get("/Subtype") != Name.Form and obj.get("/PatternType") != 1:
            return
        self.done.add(obj.objgen)
        data = self.rewrite(obj, obj.Resources)
        obj.Resources = self.resources
        obj.write(data)

    def build(self, resources, renamed):
        new = Dictionary()
        for category, names in renamed.items():
            if names:
                new[category] = Dictionary({str(n): resources[category][old] for old, n in names.items()})
        if "/ProcSet" in resources:
            new.ProcSet = resources.ProcSet
        return new

    def shown(self, font, operand):
        strings = [operand] if isinstance(operand, pikepdf.String) else [
            s for s in operand if isinstance(s, pikepdf.String)] if isinstance(operand, Array) else []
        entry = self.codes.setdefault(font.objgen, (font, set()))
        for s in strings:
            entry[1].update(bytes(s))


def differences(encoding, codes):
    """A font's /Encoding with /Differences for the codes the part shows only: pdfTeX lists those the
    whole run shows (and may share the dictionary between fonts)."""
    names, code = {}, 0
    for item in encoding.Differences:
        if isinstance(item, Name):
            names[code] = item
            code += 1
        else:
            code = int(item)
    listed, last = [], None
    for code in sorted(c for c in codes if c in names):
        if code != last:
            listed.append(code)
        listed.append(names[code])
        last = code + 1
    new = Dictionary(Type=Name.Encoding, Differences=Array(listed))
    if "/BaseEncoding" in encoding:
        new.BaseEncoding = encoding.BaseEncoding
    return new


def name_tree(out, names):
    """A name tree of `names` ({name: destination array}) in one node: its /Names array, sorted by the
    names' bytes as a name tree's keys are, each destination array in it (no dictionary, no object of
    its own), so that a large book's tree is made in one step and written as one object."""
    pairs = sorted(((pikepdf.String(name), dest) for name, dest in names.items()), key=lambda kv: bytes(kv[0]))
    return out.make_indirect(Dictionary(Names=Array([item for pair in pairs for item in pair])))


def set_outline(out, items):
    """out's /Outlines made of `items` ([{"title" (the source's), "key" (/Dest or /A), "value" (out's),
    "open", "children"}]); none when there are no items."""
    if items:
        root = out.make_indirect(Dictionary(Type=Name.Outlines))
        made = outline_objects(out, items, root)
        root.First, root.Last, root.Count = made[0], made[-1], count(made)
        out.Root.Outlines = root


def outline_objects(out, items, parent):
    made = []
    for item in items:
        new = out.make_indirect(Dictionary(Title=copy(out, item["title"]), Parent=parent))
        if item["value"] is not None:
            new[item["key"]] = item["value"]
        kids = outline_objects(out, item["children"], new)
        if kids:
            new.First, new.Last = kids[0], kids[-1]
            new.Count = count(kids) * (1 if item["open"] else -1)
        made.append(new)
    for a, b in zip(made, made[1:]):
        a.Next, b.Prev = b, a
    return made
