"""The files a piece of an entry's TeX reads, and which of them a build refuses: a picture (compiled by
TeX, glossary.pictures) may read files of the dictionary's folder only; a description (read by pandoc,
glossary.texprose) reads none.  The reader tells these mistakes before any job (glossary.texdict), and the
jobs refuse them again before TeX or pandoc runs."""
import re
from pathlib import Path

# The files a picture reads by name: \input, \includegraphics, pgfplots' \addplot table.
FILE_REFERENCE = re.compile(r"\\(?:input|includegraphics|addplot\+?[^;]*?\btable)\s*(?:\[[^\]]*\])?\s*\{([^{}\s]+)\}")
# Files a picture reads by other commands than FILE_REFERENCE's: listings, verbatim files, packages.
OTHER_READS = re.compile(r"\\(?:lstinputlisting|verbatiminput|inputminted\s*\{[^{}]*\}|include|InputIfFileExists|"
                         r"usepackage|RequirePackage|pgfplotstableread|openin\d*\s*=?)\s*(?:\[[^\]]*\])?\s*\{([^{}\s]+)\}")
# The commands with which pandoc would read a file into a description's text.
DESCRIPTION_READS = ("\\lstinputlisting", "\\inputminted", "\\verbatiminput")
# The lexer's tokens of those commands, starred forms too (\verbatiminput*).
DESCRIPTION_READ_TOKENS = frozenset(DESCRIPTION_READS) | {f"{c}*" for c in DESCRIPTION_READS}
OUTSIDE_FIX = ("a picture may read only the files of that folder, named relative to it without ../: move the file "
               "into the folder or remove the read")
DESCRIPTION_FIX = ("a build reads no file for a description (it might be one outside the dictionary's folder); put "
                   "the listing in the entry (an lstlisting environment)")


def outside(name):
    """Whether a file name reaches out of the dictionary's folder, or into its hidden files (.git):
    absolute, climbing (../) or naming a dot folder or file, which a TeX run refuses (latex.SANDBOX)."""
    parts = Path(name).parts
    return Path(name).is_absolute() or name.startswith("~") or any(
        part == ".." or (part.startswith(".") and part != ".") for part in parts)


def picture_read(n, name):
    """What a picture that reads `name` outside the folder does wrong, as the reader and the job say it."""
    return f"picture {n} reads {name}, outside the dictionary's folder"


def description_read(command):
    """What a description that reads a file with `command` does wrong, as the reader and the job say it."""
    return f"{command} reads a file into the text"


def outside_reads(tex):
    """[(offset, name)] of the names a picture's TeX reads outside the dictionary's folder, in order."""
    found = [(m.start(), m.group(1)) for pattern in (FILE_REFERENCE, OTHER_READS) for m in pattern.finditer(tex)
             if outside(m.group(1))]
    return sorted(found)
