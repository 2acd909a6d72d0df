"""A dictionary of about N terms made from a real one, for `make bench` at scale: the real
dictionary's entries repeated under new keys, each copy's cross-references kept inside the copy.

    python scripts/synthetic_dictionary.py REAL_YAML DEST N    # prints DEST/dictionary.yaml

REAL_YAML is a dictionary's YAML file (scripts/real_dictionary.py writes one).  Copy c of a glossary
file F is F_c<c>.tex, \\input after F in the main file; in it every key a term defines, every key the
\\gls family or see= names, and every \\label/\\ref/\\eqref name gets the suffix -c<c>; the
names gain " c<c>" so that the index tells the copies apart.  Demos stay with the first copy.
"""
import re
import shutil
import sys
from pathlib import Path

import yaml

from glossary.readers.latex.glossaries import DEFINE, KEY_CALL
from glossary.texdict import read

LABEL_CALL = re.compile(r"\\(label|ref|eqref|autoref|cref|Cref|pageref)\s*\{([^{}]*)\}")
SEE = re.compile(r"\b(see|seealso)\s*=\s*\{([^{}]*)\}")
NAME = re.compile(r"\bname\s*=\s*\{")


def copied(text, keys, suffix):
    """A glossary file's text with its keys and labels renamed for one copy."""
    def key(k):
        k = k.strip()
        return f"{k}{suffix}" if k in keys else k

    # a definer's first mandatory argument is the key: \newglossaryentry{key}, \newacronym[..]{key}
    out, pos = [], 0
    for m in DEFINE.finditer(text):
        arg = re.match(r"\s*(\[[^\]]*\])?\s*\{([^{}]*)\}", text[m.end():])
        if not arg:
            continue
        out.append(text[pos:m.end()] + arg.group(0)[:arg.start(2)] + key(arg.group(2)) + "}")
        pos = m.end() + arg.end()
    text = "".join(out) + text[pos:]
    text = KEY_CALL.sub(lambda m: m.group(0)[:m.start(1) - m.start(0)] + ",".join(
        key(k) for k in m.group(1).split(",")) + "}", text)
    text = SEE.sub(lambda m: f"{m.group(1)}={{{','.join(key(k) for k in m.group(2).split(','))}}}", text)
    text = LABEL_CALL.sub(lambda m: f"\\{m.group(1)}{{{m.group(2)}{suffix}}}", text)
    return _renamed(text, suffix)


def _renamed(text, suffix):
    """name={...} gains the copy's suffix after its closing brace's content."""
    out, pos = [], 0
    for m in NAME.finditer(text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        out.append(text[pos:i - 1] + f" {suffix[1:]}}}")
        pos = i
    return "".join(out) + text[pos:]


def main(real_yaml, dest, n):
    real_yaml, dest = Path(real_yaml), Path(dest)
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(real_yaml.parent, dest, symlinks=True)
    config = yaml.safe_load(real_yaml.read_text(encoding="utf-8"))
    main_tex = dest / config["main"]
    dictionary = read(main_tex)
    keys = {e["key"] for e in dictionary["entries"].values()}
    copies = max(1, round(n / len(keys)))
    text = main_tex.read_text(encoding="utf-8")
    for rel in dictionary["glossary_files"]:
        source = (dest / rel).read_text(encoding="utf-8")
        stem = rel[:-4] if rel.endswith(".tex") else rel
        inputs = []
        for c in range(2, copies + 1):
            (dest / f"{stem}_c{c}.tex").write_text(copied(source, keys, f"-c{c}"), encoding="utf-8")
            inputs.append(f"\\input{{{stem}_c{c}.tex}}")
        added = "\n".join(inputs)
        text = re.sub(r"\\input\{" + re.escape(rel) + r"\}", lambda m, added=added: m.group(0) + "\n" + added, text,
                      count=1)
    main_tex.write_text(text, encoding="utf-8")
    config.pop("manifest", None)
    out = dest / "dictionary.yaml"
    out.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    print(out)
    return out


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
