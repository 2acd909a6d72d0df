"""Embedded Type 1 font programs (FontFile, as pdfTeX writes them) re-subset to the glyphs a part of a
shared run shows (glossary.pdfpages): the program's /Subrs and /CharStrings (and the glyphs accented
ones build on), its built-in encoding and subset tag, the font's /Widths, /FirstChar, /LastChar and
the descriptor's /CharSet.  Type 1 encryption is done here rather than by fontTools.misc.eexec, which
took 44 s of the 50 s that splitting a run of 152 pictures cost (a loop on ints: 6 s in all)."""
import functools
import hashlib
import re
import subprocess
from decimal import Decimal
from pathlib import Path

import pikepdf
from fontTools import tfmLib
from fontTools.encodings.StandardEncoding import StandardEncoding
from pikepdf import Array, Dictionary, Name


def code_names(font, builtin):
    """{code: glyph name} of a simple font: its /Encoding's /Differences over its base encoding (the
    program's built-in one, `builtin`, or StandardEncoding)."""
    encoding = font.get("/Encoding")
    names = dict(builtin)
    if isinstance(encoding, Name) or (isinstance(encoding, Dictionary) and "/BaseEncoding" in encoding):
        base = encoding if isinstance(encoding, Name) else encoding.BaseEncoding
        if base == Name.StandardEncoding:
            names = {c: n for c, n in enumerate(StandardEncoding) if n != ".notdef"}
    if isinstance(encoding, Dictionary) and "/Differences" in encoding:
        code = 0
        for item in encoding.Differences:
            if isinstance(item, Name):
                names[code] = str(item)[1:]
                code += 1
            else:
                code = int(item)
    return names


BUILTIN = re.compile(rb"dup (\d+) ?/([^\s/]+) put")
ENCODED = re.compile(rb"dup \d+ ?/([^\s/]+) put\n?")
SUBRS = re.compile(rb"/Subrs\s+(\d+)\s+array")
SUBR = re.compile(rb"\s*dup\s+(\d+)\s+(\d+)\s+(\S+) ")
CHARSTRINGS = re.compile(rb"/CharStrings\s+(\d+)\s+dict\s+dup\s+begin")
GLYPH = re.compile(rb"\s*/([^\s/\[\]{}()<>%]+)\s+(\d+)\s+(\S+) ")
TRAILER = re.compile(rb"[ \t]*[^\r\n]*(?:\r\n|\r|\n)?")


def entries(text, at, pattern):
    """[(key, encrypted charstring, the 'RD' token, the line's rest)] from `at` while entries follow,
    and the offset after them."""
    found = []
    while True:
        match = pattern.match(text, at)
        if not match:
            return found, at
        start = match.end()
        end = start + int(match.group(2))
        trailer = TRAILER.match(text, end)
        found.append((match.group(1), text[start:end], match.group(3), text[end:trailer.end()]))
        at = trailer.end()


@functools.lru_cache(maxsize=64)
def parse_program(data, length1, length2):
    """(clear text, trailer, decrypted private part, built-in encoding, the /Subrs and /CharStrings
    matches, the subroutines and glyphs (entries) with the offsets after them, lenIV, {glyph: (the glyphs
    and the subroutines it uses)} filled by resubset) of a Type 1 program as pdfTeX embeds it, or None;
    kept for the next parts of the same run."""
    clear, trailer = data[:length1], data[length1 + length2:]
    plain = decrypt(data[length1:length1 + length2], 0, EEXEC)
    builtin = {int(c): n.decode() for c, n in BUILTIN.findall(clear)}
    subrs_at, strings_at = SUBRS.search(plain), CHARSTRINGS.search(plain)
    if subrs_at is None or strings_at is None:
        return None
    subrs, subrs_end = entries(plain, subrs_at.end(), SUBR)
    glyphs, glyphs_end = entries(plain, strings_at.end(), GLYPH)
    lenIV = re.search(rb"/lenIV\s+(-?\d+)", plain)
    lenIV = int(lenIV.group(1)) if lenIV else 4
    return clear, trailer, plain, builtin, subrs_at, strings_at, subrs, subrs_end, glyphs, glyphs_end, lenIV, {}


def resubset(users):
    """Re-subset one embedded Type 1 program (FontFile) to the glyphs its font dicts in the part show
    (users: [(font dict, codes)]), with /Widths, /FirstChar, /LastChar, /CharSet and the tag to match."""
    descriptor = users[0][0].FontDescriptor
    stream = descriptor.FontFile
    program = parse_program(stream.read_bytes(), int(stream.Length1), int(stream.Length2))
    if program is None:
        return                   # not a program as pdfTeX writes it: left as it came
    clear, trailer, plain, builtin, subrs_at, strings_at, subrs, subrs_end, glyphs, glyphs_end, lenIV, uses = program
    charstrings = {name.decode(): cs for name, cs, _, _ in glyphs}
    subr_data = {int(n): cs for n, cs, _, _ in subrs}
    wanted = {".notdef"}
    for font, codes in users:
        names = code_names(font, builtin)
        wanted.update(names[c] for c in codes if c in names)
    wanted &= set(charstrings)
    used_subrs = {0, 1, 2, 3} & set(subr_data)
    todo = sorted(wanted)
    while todo:
        name = todo.pop()
        if name not in uses:        # what a glyph calls is the program's: found once per run, not per part
            called = set()
            uses[name] = (mark(decrypt(charstrings[name], lenIV), subr_data, called, lenIV) & set(charstrings),
                          called)
        parts, called = uses[name]
        used_subrs |= called
        todo += sorted(parts - wanted)
        wanted |= parts
    base = str(descriptor.FontName)[1:].split("+", 1)[-1]
    tag = "".join(chr(65 + b % 26) for b in hashlib.sha256(" ".join([base, *sorted(wanted)]).encode()).digest()[:6])
    rd, np_ = (subrs[0][2], subrs[0][3]) if subrs else (b"RD", b" NP\n")
    stub = encrypt(b"\0" * max(lenIV, 0) + b"\x0b", CHARSTRING) if lenIV >= 0 else b"\x0b"
    given = {int(n): (cs, token, rest) for n, cs, token, rest in subrs}
    last = max(used_subrs, default=-1)
    out_subrs = b""
    for n in range(last + 1):
        cs, token, rest = given[n] if n in used_subrs else (stub, rd, np_)
        out_subrs += b"dup %d %d %s " % (n, len(cs), token) + cs + rest
    out_glyphs = b"".join(b"/%s %d %s " % (name, len(cs), token) + cs + rest
                          for name, cs, token, rest in glyphs if name.decode() in wanted)
    rest = (b"/Subrs %d array\n" % (last + 1) + out_subrs
            + plain[subrs_end:strings_at.start()] + b"/CharStrings %d dict dup begin\n" % len(
                [g for g in glyphs if g[0].decode() in wanted]) + out_glyphs + plain[glyphs_end:])
    head, state = encrypted_head(plain[:subrs_at.start()])
    encrypted = head + encrypt(rest, state)
    clear = re.sub(rb"(/FontName\s*/)(?:[A-Z]{6}\+)?", lambda m: m.group(1) + tag.encode() + b"+", clear, count=1)
    clear = ENCODED.sub(lambda m: m.group(0) if m.group(1).decode() in wanted else b"", clear)
    stream.write(clear + encrypted + trailer)
    stream.Length1, stream.Length2, stream.Length3 = len(clear), len(encrypted), len(trailer)
    descriptor.FontName = Name(f"/{tag}+{base}")
    descriptor.CharSet = pikepdf.String("".join(f"/{n}" for n in sorted(wanted - {".notdef"})))
    for font, codes in users:
        font.BaseFont = descriptor.FontName
        if codes and "/Widths" in font:
            first, widths = int(font.FirstChar), list(font.Widths)
            low, high = min(codes), max(codes)
            exact = tfm_widths(base)
            font.Widths = Array([exact.get(c, widths[c - first]) for c in range(low, high + 1)])
            font.FirstChar, font.LastChar = low, high


@functools.lru_cache(maxsize=None)
def font_map():
    """{PostScript name: [TeX font metric names]} of pdfTeX's map file, less slanted or extended
    instances (whose widths are not the program's)."""
    found = {}
    path = subprocess.run(["kpsewhich", "pdftex.map"], capture_output=True, text=True).stdout.strip()
    for line in Path(path).read_text(errors="replace").splitlines() if path else []:
        words = line.split()
        if len(words) > 1 and not line.startswith(("%", "#")) and not re.search(r"Slant|Extend", line):
            found.setdefault(words[1], []).append(words[0])
    return found


# kpsewhich's answers: {TeX font metric name: its file, or None}.  One kpsewhich process per run of
# names (prefetch): a process each costs 10 ms, and a part's fonts are found at once.
_TFM_PATHS = {}


def prefetch(names):
    """Find the metric files of the PostScript fonts `names` with one kpsewhich run (tfm_widths)."""
    tfms = sorted({t for n in names for t in font_map().get(n, [])} - set(_TFM_PATHS))
    if not tfms:
        return
    found = subprocess.run(["kpsewhich", *[f"{t}.tfm" for t in tfms]], capture_output=True, text=True).stdout
    paths = {Path(line).stem: line for line in found.splitlines() if line}
    _TFM_PATHS.update({t: paths.get(t) for t in tfms})


@functools.lru_cache(maxsize=None)
def tfm_widths(name):
    """{code: width in 1/1000 em, rounded to 0.1 as pdfTeX writes /Widths} from the metric of the font
    `name` at its design size ({} when there is no one metric): pdfTeX writes the widths of the first
    size the run uses, which differ in the last digit between sizes, so between batches."""
    prefetch([name])
    found = []
    for tfm in font_map().get(name, []):
        path = _TFM_PATHS.get(tfm)
        if path:
            chars = tfmLib.TFM(path).chars
            found.append({c: round(Decimal(v["width"] * 1000), 1).normalize() for c, v in chars.items()})
    if not found or any(f != found[0] for f in found[1:]):
        return {}
    return {c: int(w) if w == int(w) else w for c, w in found[0].items()}


# The keys of Type 1 encryption: the private part (eexec) and each charstring.
EEXEC, CHARSTRING = 55665, 4330


@functools.lru_cache(maxsize=4096)
def decrypt(data, skip, key=CHARSTRING):
    """Type 1 decryption of data (a charstring by default), its first `skip` bytes dropped (lenIV; < 0:
    not encrypted)."""
    if skip < 0:
        return data
    out, r = bytearray(len(data)), key
    for i, c in enumerate(data):
        out[i] = c ^ (r >> 8)
        r = ((c + r) * 52845 + 22719) & 0xFFFF
    return bytes(out[skip:])


def encrypt(data, key, state=False):
    """Type 1 encryption (the inverse of decrypt, no bytes dropped); with state=True, also the cipher's
    state after the data: the key that encrypts what follows."""
    out, r = bytearray(len(data)), key
    for i, p in enumerate(data):
        c = p ^ (r >> 8)
        out[i] = c
        r = ((c + r) * 52845 + 22719) & 0xFFFF
    return (bytes(out), r) if state else bytes(out)


@functools.lru_cache(maxsize=64)
def encrypted_head(plain):
    """The eexec encryption of a private part's head (all before /Subrs: the same in every part of a run,
    and most of the bytes) and the state after it, encrypted once per program."""
    return encrypt(plain, EEXEC, state=True)


def tokens(cs):
    """The numbers and operators (12 x as 1200 + x, as strings) of a decrypted Type 1 charstring."""
    i = 0
    while i < len(cs):
        v = cs[i]
        if v >= 32:
            if v <= 246:
                yield v - 139
                i += 1
            elif v <= 250:
                yield (v - 247) * 256 + cs[i + 1] + 108
                i += 2
            elif v <= 254:
                yield -(v - 251) * 256 - cs[i + 1] - 108
                i += 2
            else:
                yield int.from_bytes(cs[i + 1:i + 5], "big", signed=True)
                i += 5
        elif v == 12:
            yield f"op{1200 + cs[i + 1]}" if i + 1 < len(cs) else "op12"
            i += 2
        else:
            yield f"op{v}"
            i += 1


def mark(cs, subrs, used, lenIV, stack=None, ps=None, depth=0):
    """The glyph names an accented glyph (seac) builds on; the subroutines cs calls added to `used`
    (following hint replacement's `n 1 3 callothersubr pop callsubr`)."""
    stack = [] if stack is None else stack
    ps = [] if ps is None else ps
    found = set()
    for token in tokens(cs):
        if isinstance(token, int):
            stack.append(token)
        elif token == "op10" and stack:                  # callsubr
            n = stack.pop()
            if n in subrs and depth < 16:
                used.add(n)
                found |= mark(decrypt(subrs[n], lenIV), subrs, used, lenIV, stack, ps, depth + 1)
        elif token == "op1216" and len(stack) >= 2:      # callothersubr
            stack.pop()
            n = stack.pop()
            args = [stack.pop() for _ in range(min(n, len(stack)))]
            ps.extend(args)
        elif token == "op1217":                          # pop
            stack.append(ps.pop() if ps else 0)
        elif token == "op1206" and len(stack) >= 2:      # seac: base and accent by StandardEncoding
            found |= {StandardEncoding[c] for c in stack[-2:] if 0 <= c < 256}
            stack.clear()
        elif token == "op1212" and len(stack) >= 2:      # div
            b, a = stack.pop(), stack.pop()
            stack.append(a // b if b else 0)
        elif token in ("op11", "op14"):                  # return, endchar
            return found
        else:
            stack.clear()
    return found
