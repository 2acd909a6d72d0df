"""Type 1 fonts' eexec and charstring cipher (Adobe's Type 1 Font Format, 7.1), as fontTools.misc.eexec
computes it, in a tight loop: fontTools' calls a function per byte, which made re-subsetting the fonts of a
batch of term PDFs (glossary.pdfpages) cost four times the batch's pdflatex run."""
import functools

C1, C2 = 52845, 22719


# A batch's parts share the run's font programs: each program and glyph is deciphered once per process.
@functools.lru_cache(maxsize=65536)
def decrypt(cipher, r):
    """(the plain bytes of `cipher` under the key `r`, the key after them)."""
    plain = bytearray(len(cipher))
    for i, c in enumerate(cipher):
        plain[i] = c ^ (r >> 8)
        r = ((c + r) * C1 + C2) & 0xFFFF
    return bytes(plain), r


def encrypt(plain, r):
    """(the cipher bytes of `plain` under the key `r`, the key after them)."""
    cipher = bytearray(len(plain))
    for i, p in enumerate(plain):
        c = p ^ (r >> 8)
        cipher[i] = c
        r = ((c + r) * C1 + C2) & 0xFFFF
    return bytes(cipher), r
