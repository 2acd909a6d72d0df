"""The book's pieces joined into one PDF, so that an edit writes its own piece's objects alone.

qpdf (pikepdf's save) writes a joined book whole: at 5,000 terms it opened, copied and wrote 74 MB and
133,000 objects at each edit.  Here each part (a pdflatex run of one piece, glossary.bookrun) becomes a
*segment*: its pages and every object they reach, numbered from the part's base in the order they are
reached, written once as bytes (its streams as the run compressed them, its other objects in object
streams of up to PER_STREAM) and kept in `store` under what it is made of (the part's file, its base).
The book is a header, the segments' bytes in order, the objects that tie them together (the page tree's
root, the catalog, one tree of named destinations, one outline, the page labels, the document
information) and a cross-reference stream.  A part's base follows from the counts of the parts before
it, each with room to spare and rounded up (span()), so that an edit that adds or drops a few objects
leaves the later parts' numbers, and their bytes, as they were.  The bytes are a function of the parts'
alone: a join with every segment kept and a join from nothing write the same file.
"""
import hashlib
import itertools
import os
import re
import struct
import zlib
from pathlib import Path

import pikepdf
from pikepdf import Dictionary, Name

from glossary import inprocess, jsonio, pdfpages

# The layout of a kept segment: one kept in another layout is made again.
FORMAT = 1
# Object 1 is the page tree's root (each segment's page node is its kid), 2 the catalog.
ROOT_PAGES, CATALOG, FIRST = 1, 2, 3
# A segment's object numbers: its count and at least ROOM more, rounded up to a multiple of SPAN.
ROOM, SPAN = 64, 256
PER_STREAM = 100
# zlib's level for the segments' object streams; the tail's and the cross-reference stream, written
# at every join, are made at the fastest (a few kilobytes larger)
LEVEL, TAIL_LEVEL = 6, 1
# A name every pdfTeX run with hyperref defines (its first page); the first part's is kept.
EVERY_RUN = {"Doc-Start"}
# A page's attributes that its page tree may hold for it: each page of a segment holds its own.
INHERITED = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")
# Catalog entries the join makes itself; the first part's others (open action, page mode) are kept.
MADE = {"/Type", "/Pages", "/Names", "/Outlines", "/PageLabels"}
# An object as qpdf unparses it: its strings, literal (every parenthesis escaped) or hex, are passed
# over; its references ("12 0 R") are renumbered.
TOKEN = re.compile(rb"\((?:[^\\()]|\\.)*\)|<[0-9A-Fa-f]*>|(?<![\w.#/+-])(\d+) (\d+) R(?!\w)", re.S)
# a cross-reference stream's fields: type (1 byte), offset or object stream (4), generation or index (2)
W = b"[ 1 4 2 ]"


def join(parts, output, store=None):
    """One PDF of `parts` ([{"pdf", "nested", "undefined"}], pdflatex runs of one document's pieces,
    glossary.bookrun), written atomically: their pages in order; one tree of named destinations, each
    name from the part that defines it (a part's links to another's names, which pdfTeX pointed at a
    page of its own, are `undefined`: names it does not define); one outline, a nested part's top items
    under the last top item before it; page labels that run on; the first part's catalog entries (open
    action, page mode) and document information.  Each part keeps its own font subsets.  `store`: a
    folder where each part's segment is kept (<the PDF's stem>.seg, .seg.json).  Returns the names of
    the book's named destinations."""
    stems = [Path(part["pdf"]).stem for part in parts]
    if store is not None and len(set(stems)) < len(stems):
        raise ValueError(f"{store}: two parts named alike would share their kept segment: {sorted(stems)}")
    segments, base = [], FIRST
    for part in parts:
        segments.append(segment(part["pdf"], base, store))
        base += span(segments[-1]["count"])
    tail = Tail(base)
    names = tail.tie(parts, segments)
    version = max((tuple(int(n) for n in s["version"].split(".")) for s in segments), default=(1, 5))
    header = b"%%PDF-%d.%d\n%%\xe2\xe3\xcf\xd3\n" % max(version, (1, 5))
    tail_bytes, tail_entries = tail.written()
    used, at = {}, len(header)
    for seg in segments:
        used.update((n, (t, f2 + at if t == 1 else f2, f3)) for n, t, f2, f3 in seg["entries"])
        at += seg["size"]
    used.update((n, (t, f2 + at if t == 1 else f2, f3)) for n, t, f2, f3 in tail_entries)
    at += len(tail_bytes)
    xref = tail.number()
    used[xref] = (1, at, 0)
    # one section from 0, as a file never updated has it: the numbers a segment leaves spare are free,
    # each entry naming the next free one, the last none (object 0 heads the list)
    free = [n for n in range(1, xref) if n not in used]
    used[0] = (0, free[0] if free else 0, 65535)
    used.update((n, (0, after, 0)) for n, after in zip(free, free[1:] + [0]))
    data = zlib.compress(struct.pack(">" + "BIH" * (xref + 1), *itertools.chain.from_iterable(
        used[n] for n in range(xref + 1))), TAIL_LEVEL)
    digest = hashlib.sha256(header)
    for seg in segments:
        digest.update(bytes.fromhex(seg["digest"]))
    digest.update(tail_bytes)
    ident = digest.hexdigest()[:32].encode()
    info = b"/Info %d 0 R " % tail.info if tail.info else b""
    trailer = (b"%d 0 obj\n<< /Filter /FlateDecode /ID [ <%s> <%s> ] %s/Length %d /Root %d 0 R "
               b"/Size %d /Type /XRef /W %s >>\nstream\n" % (xref, ident, ident, info, len(data), CATALOG, xref + 1, W))
    target = Path(output)
    tmp = inprocess.temporary(target)
    with open(tmp, "wb") as out:
        out.write(header)
        for seg in segments:
            out.write(seg["bytes"] if "bytes" in seg else Path(seg["path"]).read_bytes())
        out.write(tail_bytes)
        out.write(trailer + data + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % at)
    os.replace(tmp, target)
    return names


def span(count):
    """The object numbers a segment of `count` objects is given."""
    return -(-(count + ROOM) // SPAN) * SPAN


def segment(pdf, base, store):
    """The segment of the part `pdf` numbered from `base`: {"count", "entries" (its cross-reference
    entries, offsets from its start), "size", "digest", "path" or "bytes", and what the join ties
    together: "pages" (their numbers), "names", "outline", "labels", "root", "info", "version"}; kept
    in `store` and taken from there while the part's file and the base are the same."""
    st = os.stat(pdf)
    key = [FORMAT, zlib.ZLIB_RUNTIME_VERSION, base, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino,
           st.st_dev]
    if store is not None:
        kept = Path(store) / f"{Path(pdf).stem}.seg"
        meta = kept.with_suffix(".seg.json")
        if meta.is_file() and kept.is_file():
            found = jsonio.read_compact(meta)
            if found.get("key") == key and kept.stat().st_size == found["size"]:
                return dict(found, path=str(kept))
    with pikepdf.open(pdf) as source:
        made = Walk(source, base, pdf).segment()
    made["key"] = key
    if store is None:
        return made
    data = made.pop("bytes")
    for path, content in ((kept, data), (meta, None)):
        tmp = inprocess.temporary(path)
        if content is None:
            jsonio.write(tmp, made, compact=True)
        else:
            tmp.write_bytes(content)
        os.replace(tmp, path)
    return dict(made, path=str(kept))


class Walk:
    """A part's objects, from its pages: numbered from base + 1 in the order they are reached (its pages
    first), each written as qpdf unparses it with its references renumbered; its page tree's nodes are
    the segment's page node (`base`), a kid of the book's."""

    def __init__(self, source, base, pdf):
        self.source, self.base, self.pdf = source, base, pdf
        self.pages = [page.obj for page in source.pages]
        self.numbers, self.objects, self.texts = {}, [], []
        for page in self.pages:
            for key in INHERITED:
                if key not in page and (value := pdfpages.inherited(page, key)) is not None:
                    page[key] = value
            if "/Parent" in page:
                self.numbers[page.Parent.objgen] = base
        for page in self.pages:
            self.numbers[page.objgen] = base + 1 + len(self.objects)
            self.objects.append(page)

    def reach(self, objgen):
        """The number of one of the part's objects, given one (and written) when first reached."""
        number = self.numbers.get(objgen)
        if number is None:
            target = self.source.get_object(objgen)
            if target is None:
                return None
            if isinstance(target, Dictionary) and target.get("/Type") in (Name.Catalog, Name.Pages, Name.Outlines):
                raise ValueError(f"{self.pdf}: an object its pages reach is its {target.Type} (object {objgen[0]})")
            number = self.numbers[objgen] = self.base + 1 + len(self.objects)
            self.objects.append(target)
        return number

    def renumbered(self, text):
        def ref(m):
            if m.group(1) is None:
                return m.group(0)
            number = self.reach((int(m.group(1)), int(m.group(2))))
            return b"null" if number is None else b"%d 0 R" % number
        return TOKEN.sub(ref, text)

    def direct(self, obj, depth=0):
        """obj's text for an object the join makes (the catalog, the outline, the name tree): a page, a
        stream or an object its pages reach by reference, others written out in place."""
        if depth > 32:
            raise ValueError(f"{self.pdf}: objects nested more than 32 deep in its catalog")
        if isinstance(obj, pikepdf.Object) and obj.is_indirect:
            if obj.objgen in self.numbers or isinstance(obj, pikepdf.Stream):
                return b"%d 0 R" % self.reach(obj.objgen)
            obj = obj.unparse(resolved=True)
        elif isinstance(obj, pikepdf.Object):
            obj = obj.unparse()
        else:
            obj = pikepdf.Array([obj]).unparse()[2:-2]

        def ref(m):
            if m.group(1) is None:
                return m.group(0)
            objgen = (int(m.group(1)), int(m.group(2)))
            target = None if objgen in self.numbers else self.source.get_object(objgen)
            if target is None or isinstance(target, pikepdf.Stream):
                number = self.reach(objgen)
                return b"null" if number is None else b"%d 0 R" % number
            return self.direct(target, depth + 1)
        return TOKEN.sub(ref, obj)

    def drain(self):
        while len(self.texts) < len(self.objects):
            obj = self.objects[len(self.texts)]
            if isinstance(obj, pikepdf.Stream):
                raw = obj.read_raw_bytes()
                found = Dictionary(obj.stream_dict)
                if "/Length" in found:
                    del found["/Length"]
                text = found.unparse()[:-2] + b"/Length %d >>" % len(raw)
                self.texts.append((self.renumbered(text), raw))
            else:
                self.texts.append((self.renumbered(obj.unparse(resolved=True)), None))

    def segment(self):
        root, source = self.source.Root, self.source
        if "/StructTreeRoot" in root:
            raise ValueError(f"{self.pdf}: a tagged PDF (its catalog holds a structure tree), which the join "
                             "cannot merge with the other parts'")
        self.drain()
        names = {name: [key.decode("latin-1"), self.direct(dest).decode("latin-1")]
                 for name, (key, dest) in pdfpages.named_destination_bytes(source).items()}
        outline = self.outline(root.Outlines.First, 0) if "/Outlines" in root and "/First" in root.Outlines else []
        made = {"pages": [self.numbers[p.objgen] for p in self.pages], "names": names, "outline": outline,
                "labels": labels(source), "version": str(source.pdf_version),
                "root": {k: self.direct(v).decode("latin-1") for k, v in root.items() if k not in MADE},
                "info": self.direct(source.trailer.Info).decode("latin-1") if "/Info" in source.trailer else None}
        self.drain()
        data, entries = bytearray(), []
        kids = b" ".join(b"%d 0 R" % n for n in made["pages"])
        loose = [(self.base, b"<< /Count %d /Kids [ %s ] /Parent %d 0 R /Type /Pages >>" % (
            len(self.pages), kids, ROOT_PAGES))]
        for number, (text, raw) in enumerate(self.texts, self.base + 1):
            if raw is None:
                loose.append((number, text))
            else:
                entries.append((number, 1, len(data), 0))
                data += b"%d 0 obj\n%s\nstream\n" % (number, text) + raw + b"\nendstream\nendobj\n"
        number = self.base + 1 + len(self.texts)
        for stream in object_streams(loose, number, data, entries):
            number = stream + 1
        made.update(count=number - self.base, entries=entries, size=len(data),
                    digest=hashlib.sha256(data).hexdigest(), bytes=bytes(data))
        return made

    def outline(self, item, depth, seen=None):
        found, seen = [], set() if seen is None else seen
        while item is not None and depth < 64 and item.objgen not in seen:
            seen.add(item.objgen)
            kind = "/Dest" if "/Dest" in item else "/A"
            found.append({"title": self.direct(item.Title).decode("latin-1"), "key": kind,
                          "value": self.direct(item[kind]).decode("latin-1") if kind in item else None,
                          "open": int(item.get("/Count", 0)) >= 0,
                          "children": self.outline(item.First, depth + 1, seen) if "/First" in item else []})
            item = item.get("/Next")
        return found


def object_streams(loose, number, data, entries, level=LEVEL):
    """`loose` ([(number, text)]: objects that are not streams) written to `data` in object streams of
    up to PER_STREAM, numbered from `number`; their entries added.  Yields each stream's number."""
    for start in range(0, len(loose), PER_STREAM):
        group, body, offsets = loose[start:start + PER_STREAM], bytearray(), []
        for i, (n, text) in enumerate(group):
            offsets.append(b"%d %d" % (n, len(body)))
            body += text + b"\n"
            entries.append((n, 2, number, i))
        head = b" ".join(offsets) + b"\n"
        packed = zlib.compress(head + body, level)
        entries.append((number, 1, len(data), 0))
        data += (b"%d 0 obj\n<< /First %d /Filter /FlateDecode /Length %d /N %d /Type /ObjStm >>\nstream\n" % (
            number, len(head), len(packed), len(group)) + packed + b"\nendstream\nendobj\n")
        yield number
        number += 1


def labels(source):
    """A part's page label ranges: [[first page (0-based), style name or "", prefix text or "", start or
    None]]; a PDF without labels numbers its pages 1, 2, ..."""
    if "/PageLabels" not in source.Root:
        return [[0, "/D", "", None]]
    return [[int(at), str(style.get("/S", "")), style.P.unparse().decode("latin-1") if "/P" in style
             else "", int(style.St) if "/St" in style else None]
            for at, style in sorted(pikepdf.NumberTree(source.Root.PageLabels).items())]


class Tail:
    """The objects that tie the segments together, numbered from `base` (after the last segment's), and
    the page tree's root and the catalog (objects 1 and 2)."""

    def __init__(self, base):
        self.base, self.next = base, base
        self.objects = {}
        self.info = None          # the document information's number

    def number(self):
        self.next += 1
        return self.next - 1

    def tie(self, parts, segments):
        names, items, nums, first, kids = {}, [], [], 0, []
        for part, seg, base in zip(parts, segments, self.bases(segments)):
            for name in sorted(seg["names"]):
                if name in part["undefined"] or (name in EVERY_RUN and name in names):
                    continue
                if name in names:
                    raise ValueError(f"{part['pdf']}: the destination {name} is an earlier part's too")
                names[name] = seg["names"][name]
            if part["nested"] and items:
                items[-1]["children"].extend(seg["outline"])
            else:
                items.extend(seg["outline"])
            run_on(nums, seg["labels"], first, len(seg["pages"]))
            first += len(seg["pages"])
            kids.append(base)
        self.objects[ROOT_PAGES] = b"<< /Count %d /Kids [ %s ] /Type /Pages >>" % (
            first, b" ".join(b"%d 0 R" % k for k in kids))
        catalog = {"/Pages": b"%d 0 R" % ROOT_PAGES, "/Type": b"/Catalog"}
        if segments:
            catalog.update({k: v.encode("latin-1") for k, v in segments[0]["root"].items()})
            if segments[0]["info"] is not None:
                self.info = self.number()
                self.objects[self.info] = segments[0]["info"].encode("latin-1")
        if names:
            tree = self.number()
            pairs = sorted((key.encode("latin-1"), pikepdf.String(key.encode("latin-1")).unparse(),
                            dest.encode("latin-1")) for key, dest in names.values())
            self.objects[tree] = b"<< /Names [ %s ] >>" % b" ".join(b"%s %s" % (s, d) for _, s, d in pairs)
            catalog["/Names"] = b"<< /Dests %d 0 R >>" % tree
        if nums:
            catalog["/PageLabels"] = b"<< /Nums [ %s ] >>" % b" ".join(
                b"%d %s" % (at, label_text(style)) for at, style in nums)
        if items:
            root = self.number()
            made = self.outline_objects(items, root)
            self.objects[root] = b"<< /Count %d /First %d 0 R /Last %d 0 R /Type /Outlines >>" % (
                shown(made), made[0][0], made[-1][0])
            catalog["/Outlines"] = b"%d 0 R" % root
        self.objects[CATALOG] = b"<< %s >>" % b" ".join(
            Name(k).unparse() + b" " + v for k, v in sorted(catalog.items()))
        return set(names)

    def bases(self, segments):
        base = FIRST
        for seg in segments:
            yield base
            base += span(seg["count"])

    def outline_objects(self, items, parent):
        """[(number, shown count, open)] of each item, their objects made (glossary.pdfpages.outline_objects)."""
        made = []
        for item in items:
            number = self.number()
            kids = self.outline_objects(item["children"], number)
            made.append((number, shown(kids), item["open"], item, kids))
        for i, (number, under, opened, item, kids) in enumerate(made):
            keys = {"/Title": item["title"].encode("latin-1"), "/Parent": b"%d 0 R" % parent}
            if item["value"] is not None:
                keys[item["key"]] = item["value"].encode("latin-1")
            if kids:
                keys.update({"/First": b"%d 0 R" % kids[0][0], "/Last": b"%d 0 R" % kids[-1][0],
                             "/Count": b"%d" % (under if opened else -under)})
            if i:
                keys["/Prev"] = b"%d 0 R" % made[i - 1][0]
            if i + 1 < len(made):
                keys["/Next"] = b"%d 0 R" % made[i + 1][0]
            self.objects[number] = b"<< %s >>" % b" ".join(k.encode() + b" " + v for k, v in sorted(keys.items()))
        return [(number, under, opened) for number, under, opened, _, _ in made]

    def written(self):
        """The tail's bytes (its objects in object streams) and their entries, offsets from its start."""
        data, entries = bytearray(), []
        for stream in object_streams(sorted(self.objects.items()), self.next, data, entries, TAIL_LEVEL):
            self.next = stream + 1
        return bytes(data), entries


def shown(made):
    """Outline items shown: each item, and the descendants of open ones."""
    return sum(1 + (under if opened else 0) for _, under, opened in made)


def run_on(nums, ranges, first, pages):
    """A part's page label ranges added to `nums` ([(page, (style, prefix, start))]) from its page
    `first` on; a range that only carries on the one before it is left out."""
    if not pages:
        return
    for at, style, prefix, start in ranges:
        at += first
        if nums:
            last_at, (last_style, last_prefix, last_start) = nums[-1]
            if (last_style, last_prefix) == (style, prefix) and (start or 1) == (last_start or 1) + at - last_at:
                continue
        nums.append((at, (style, prefix, start)))


def label_text(label):
    style, prefix, start = label
    keys = []
    if prefix:
        keys.append(b"/P " + prefix.encode("latin-1"))
    if style:
        keys.append(b"/S " + style.encode("latin-1"))
    if start is not None:
        keys.append(b"/St %d" % start)
    return b"<< %s >>" % b" ".join(keys)
