"""The checks across a dictionary's files, once every entry is read (glossary.texdict.Reader): each
key's slug, the labels, and every \\gls key and \\ref they name.  Each mistake is added to the
reader's list (glossary.errors.Mistake) and the reading goes on."""
import difflib
import re

from glossary.errors import fault

SLUG = re.compile(r"^[a-z0-9-]+$")


def slug_of(key):
    """The key itself when it is a slug, else lowercased with runs of other characters as "-"."""
    return key if SLUG.match(key) else re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")


def add(reader, body, start, what, fix, kind):
    reader.mistakes += body.fault(start, what, fix, kind).mistakes


def slugs(reader, entries, places, bodies):
    slugs, owner = {}, {}
    for key in list(entries):
        slug = slug_of(key)
        where = bodies[key].src.position(bodies[key].src.starts[entries[key]["line"] - 1])
        if not slug or slug in owner:
            what = f"term {key!r}: the key gives an empty slug" if not slug else \
                f"term {key!r} and term {owner[slug]!r} ({places[owner[slug]]}) have one slug {slug!r}"
            reader.mistakes += fault(where, what, "use letters or digits in it" if not slug else "rename one key",
                                     kind="slug").mistakes
            reader.broken.add(key)
            del entries[key], bodies[key]
            continue
        owner[slug], slugs[key] = key, slug
        entries[key]["slug"] = slug
    return slugs

def labels(reader, bodies, slugs):
    labels, places = {}, {}
    for key, body in bodies.items():
        for name, start, kind, number in body.labels:
            if name in labels:
                add(reader, body, start, f"\\label{{{name}}} is defined twice (also at {places[name]})",
                         "rename one", "duplicate-label")
                continue
            labels[name] = {"slug": slugs[key], "kind": kind, "number": number}
            places[name] = body.where(start)
    return dict(sorted(labels.items()))

def check_references(reader, bodies, places, labels):
    keys = sorted(places)
    for body in bodies.values():
        for name, start in body.gls:
            if name not in places and reader.base is not None and name in base_keys(reader):
                if reader.complete:
                    add(reader, body, start, f"\\gls key {name!r} is a term of the base edition but not of this "
                             "one, and the edition must be complete (complete: true)",
                             "translate the term or drop complete:", "incomplete-edition")
                    continue
                reader.fallback.add(name)
                continue
            # a file that could not be read defines keys no one knows: no key is then told undefined
            if name not in places and name not in reader.broken and not reader.unread:
                close = difflib.get_close_matches(name, keys, n=3, cutoff=0.6) or by_title(reader, name)
                hint = f"did you mean {', '.join(close)}?" if close else "define it or fix the key"
                add(reader, body, start, f"\\gls key {name!r} is not defined", hint, "undefined-key")
        for name, start, cmd in body.refs:
            # a term left unread (its braces, a picture) may hold the label
            if name not in labels and not reader.broken and not reader.unread:
                close = difflib.get_close_matches(name, list(labels), n=3, cutoff=0.6)
                hint = f"did you mean {', '.join(close)}?" if close else "add the \\label or fix the name"
                add(reader, body, start, f"{cmd}{{{name}}} names a label that no entry defines", hint,
                         "undefined-label")

def base_keys(reader):
    return {e["key"] for e in reader.base["entries"].values()} | set(reader.base.get("left_out", ()))


def by_title(reader, name):
    """The keys of the terms whose name is closest to `name` (a translation's author may write the word,
    \\gls{Vektorraum}, for the key, vectorspace): "key (its name)"."""
    titles = {}
    for key, title in reader.titles.items():
        titles.setdefault(title.lower(), (key, title))
    close = difflib.get_close_matches(name.lower(), list(titles), n=3, cutoff=0.75)
    return [f"{titles[t][0]} ({titles[t][1]})" for t in close]
