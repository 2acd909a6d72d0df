"""glossaries and glossaries-extra: the commands that define a term, the \\gls family that refers
to one, and the forms a reference shows.

A term is defined in any of glossaries-extra's ways, each read into the same options, so that the
entry model (glossary.texdict.Reader.entry) does not know which one a term used:

    \\newglossaryentry{key}{name={...}, description={...}, ...}
    \\longnewglossaryentry{key}{name={...}, ...}{description, paragraphs allowed}
    \\newabbreviation[opts]{key}{short}{long}     name=short, short, long, description=long unless given
    \\newacronym[opts]{key}{short}{long}          the same, category acronym
    \\newdualentry[opts]{key}{short}{long}{description}   an abbreviation with its own description
    \\glsxtrnewsymbol[opts]{key}{symbol}          name=symbol, type=symbols, category symbol

An abbreviation's first use follows its category's style (\\setabbreviationstyle[category]{style} in
the preamble; glossaries-extra's defaults: long-short for abbreviations, short-nolong for acronyms):
long-short's first form is "long (short)", short-long's "short (long)", short-nolong's the short form;
the plurals are "longplural (shortplural)" and so on, shortplural short+"s", longplural long+"s".

Forms follow glossaries: text=name, first=text, plural=text+"s", and firstplural=first+"s" when
first= is given, else plural (as \\glsentryfirstplural prints it); an abbreviation's short and long
forms are kept as "short" and "long".
"""
import re

from glossary.errors import EntryError, fault, mistakes_of
from glossary.readers.latex.lexer import (
    SPACE,
    argument,
    commands,
    group_end,
    optional,
    options_group,
    skip_space,
    split_options,
)

# Commands that name glossary keys (glossaries and glossaries-extra); \Gls... and \GLS... variants too.
GLS_BASE = ("gls glspl glstext glsfirst glsplural glsfirstplural glsname glsdesc glssymbol glsuseri "
            "glsuserii glsuseriii glsuseriv glsuserv glsuservi glslink glsdisp glsadd glsentryname "
            "glsentrytext glsentrydesc glsentryfirst glsentryplural glsentryfirstplural glsxtrshort "
            "glsxtrlong glsxtrfull glshyperlink glsfmttext glsfmtname glsentryalternative "
            "glsalternative").split()
GLS_COMMANDS = frozenset(
    {f"\\{c}" for c in GLS_BASE} | {"\\G" + c[1:] for c in GLS_BASE} | {"\\" + c.upper() for c in GLS_BASE})
# The references the prose shows, and the form each shows: (singular form, capitalised).
FORMS = {"gls": ("text", False), "glspl": ("plural", False), "Gls": ("text", True), "Glspl": ("plural", True),
         "glstext": ("text", False), "Glstext": ("text", True), "glsfirst": ("first", False),
         "Glsfirst": ("first", True), "glsplural": ("plural", False), "Glsplural": ("plural", True),
         "glsname": ("name", False), "Glsname": ("name", True)}
GLS_CALL = re.compile(r"\\(" + "|".join(sorted(FORMS, key=len, reverse=True))
                      + r")(?![A-Za-z])\s*(\[[^\]]*\])?\s*\{([^{}]*)\}")
# The references a standalone picture prints without glossaries-extra (glossary.pictures' fallbacks).
PICTURE_COMMANDS = ("gls", "Gls", "glspl", "Glspl", "glstext")
# Any reference of the family in a piece of TeX (a picture's), its key the group.
KEY_CALL = re.compile(r"\\(?:[Gg]ls|GLS)[a-z]*\*?\s*(?:\[[^]]*\])?\s*\{([^{}]*)\}")
# The ways to define a term.
DEFINE = re.compile(r"\\(newglossaryentry|longnewglossaryentry|newabbreviation|newacronym|newdualentry"
                    r"|glsxtrnewsymbol)(?![A-Za-z])")
DEFINERS = commands("newglossaryentry longnewglossaryentry newabbreviation newacronym newdualentry "
                    "glsxtrnewsymbol".split())
# Preamble commands: glossaries declared, abbreviation styles set.
PREAMBLE = commands("newglossary newglossary* setabbreviationstyle printglossary printglossaries "
                    "printunsrtglossary printunsrtglossaries makeglossaries GlsXtrLoadResources".split())
TEXT = GLS_COMMANDS
COMMANDS = GLS_COMMANDS | DEFINERS | PREAMBLE
# The package option that declares the symbols glossary (\glsxtrnewsymbol's type), and its title.
SYMBOLS_OPTION = re.compile(r"\\usepackage\s*\[[^\]]*\bsymbols\b[^\]]*\]\s*\{glossaries(?:-extra)?\}")
SYMBOLS_TYPE, SYMBOLS_TITLE = "symbols", "Symbols"
BLANK_LINE = re.compile(r"\n[ \t]*(?=\n)")
# The abbreviation styles (glossaries-extra's), for \newabbreviation and bib2gls' @abbreviation alike:
# (name, first use) as templates of the short and long forms (the plural first use: the same template
# of the plurals), and whether the description is long= (a "-desc" style wants one of its own).
STYLES = {
    "long-short": ("{short}", "{long} ({short})", True),
    "long-short-desc": ("{long} ({short})", "{long} ({short})", False),
    "short-long": ("{short}", "{short} ({long})", True),
    "short-long-desc": ("{short} ({long})", "{short} ({long})", False),
    "short-nolong": ("{short}", "{short}", True),
    "short": ("{short}", "{short}", True),
    "long-noshort-desc": ("{long}", "{long}", False),
}
DEFAULT_STYLES = {"abbreviation": "long-short", "acronym": "short-nolong"}
STYLE = re.compile(r"\\setabbreviationstyle\s*(?:\[([^\]]*)\])?\s*\{([^{}]*)\}")


def defines_terms(text):
    """Whether a file's (comment-stripped) text defines a term in any way."""
    return DEFINE.search(text) is not None


def styles_of(preamble, src):
    """{category: abbreviation style} of a preamble (the text of `src`, the main file, up to
    \\begin{document}), glossaries-extra's defaults for the others."""
    styles = dict(DEFAULT_STYLES)
    for m in STYLE.finditer(preamble):
        style = m.group(2).strip()
        if style not in STYLES:
            raise fault(src.position(m.start()), f"\\setabbreviationstyle{{{style}}}: the reader knows the styles "
                        f"{', '.join(sorted(STYLES))}", "use one of them", kind="abbreviation-style")
        styles[(m.group(1) or "abbreviation").strip()] = style
    return styles


# The key of a definition that could not be read (its braces, its options): "{key}" after any [options].
KEY_AFTER = re.compile(r"\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}")


def entries_of(src, styles=None, mistakes=None, broken=None):
    """The terms one file defines, in order: [(key, offset, [(option, value, value's offset)])], every
    way of defining one read into \\newglossaryentry's options (see the module's docstring).  A mistake
    raises, unless `mistakes` (a list) collects it: then the broken definition is skipped, its key
    added to `broken` (a set: its references are no mistakes), and the reading goes on after it."""
    text, found, last_end, skipped = src.text, [], 0, False
    styles = styles or DEFAULT_STYLES

    def collect(err, key):
        if mistakes is None:
            raise err
        mistakes.extend(mistakes_of(err))
        if key:
            broken.add(key)

    for m in DEFINE.finditer(text):
        if m.start() < last_end:
            continue
        if not skipped:   # after a skipped definition its unread options are no stray text
            try:
                check_between(src, found, last_end, m.start())
            except EntryError as err:
                collect(err, found.pop()[0])   # the entry whose braces closed early goes
        try:
            key, options, last_end = READERS[m.group(1)](src, m, styles)
            found.append((key.strip(), m.start(), options))
            skipped = False
        except EntryError as err:
            mine = KEY_AFTER.match(text, m.end())
            collect(err, mine.group(1).strip() if mine else None)
            last_end, skipped = m.end(), True
    if not skipped:
        try:
            check_between(src, found, last_end, len(text))
        except EntryError as err:
            collect(err, found.pop()[0])
    return found


# Where a '}' most likely went missing when an entry's braces do not close: the group of a command's
# argument or of a short option that runs over lines (\cite{key, name={model ...), though such groups
# fit on one line; commands whose argument may well run over lines are not suspects.
SHORT_GROUP = re.compile(r"\\(?P<command>[A-Za-z]+)\*?\s*(?:\[[^\]\n]*\])?\{|(?<![A-Za-z])(?P<option>name|text|plural|"
                         r"first|firstplural|short|long|sort|type|symbol|parent|see|seealso)\s*=\s*\{")
LONG_ARGUMENT = frozenset("caption footnote emph textbf textit textrm textsf parbox fbox mbox item href url "
                          "begin end".split())


def missing_brace(src, start, stop):
    """The SHORT_GROUP match whose '{' most likely lost its '}' between start and stop, or None when no
    group there looks like it."""
    for m in SHORT_GROUP.finditer(src.text, start, stop):
        if m.group("command") in LONG_ARGUMENT:
            continue
        brace = m.end() - 1
        end = group_end(src.text, brace)
        if end is None or end > stop or "\n" in src.text[brace:end]:
            return m
    return None


def unbalanced(src, m, key, ostart, stop, what):
    """The mistake of an entry whose braces do not close before stop: at the likeliest missing '}'."""
    group = missing_brace(src, ostart + 1, stop)
    if group is None:
        return fault(src.position(m.start()), what, "add the missing '}' in this entry", term=key,
                     kind="unbalanced-braces")
    opened = re.sub(r"\s+", "", group.group(0))
    return fault(src.position(group.start()), f"{what}; the entry starts on line {src.line(m.start())}",
                 f"close the {opened}...}} opened here: its '}}' is likely the one missing", term=key,
                 kind="unbalanced-braces")


def options_at(src, m, key, pos, long=False):
    """The key=value group at pos of the definition m: (its end, its items), checked: braces that
    close, no other definition inside, no blank line (but in a \\long description)."""
    text, command = src.text, m.group(0)
    ostart = skip_space(text, pos)
    if ostart >= len(text) or text[ostart] != "{":
        raise fault(src.position(m.start()), f"{command}{{{key}}} needs its options in braces",
                    "write {name={...}, description={...}}", term=key, kind="syntax")
    oend, options = options_group(text, ostart)
    if oend is None:
        after = DEFINE.search(text, ostart)
        what = (f"the braces of this entry do not close before the next {after.group(0)} (line "
                f"{src.line(after.start())})" if after else f"the braces of this entry do not close before the "
                f"end of {src.rel}")
        raise unbalanced(src, m, key, ostart, after.start() if after else len(text), what)
    check_inside(src, m, key, ostart, oend)
    return oend, options


def check_inside(src, m, key, start, end):
    """No other definition between start and end, and no blank line from the definition to end."""
    inner = DEFINE.search(src.text, start, end)
    if inner:
        raise unbalanced(src, m, key, start, inner.start(), f"the braces of this entry do not close before the "
                         f"next {inner.group(0)} (line {src.line(inner.start())})")
    blank = BLANK_LINE.search(src.text, m.start(), end)
    if blank:
        raise fault(src.position(blank.start() + 1), f"blank line inside the entry (it starts on line "
                    f"{src.line(m.start())})", "the options are not \\long, so remove the blank line and "
                    "separate paragraphs with \\\\", term=key, kind="blank-line")


def new_glossary_entry(src, m, styles):
    key, _, kend = argument(src.text, m.end(), src, m.group(0))
    oend, options = options_at(src, m, key, kend)
    return key, options, oend


def long_new_glossary_entry(src, m, styles):
    """\\longnewglossaryentry{key}{options}{description}: the description may hold paragraphs."""
    key, _, kend = argument(src.text, m.end(), src, m.group(0))
    oend, options = options_at(src, m, key, kend)
    description, start, end = argument(src.text, oend, src, m.group(0))
    options = [o for o in options if o[0] != "description"] + [("description", description, start)]
    return key, options, end


def optional_options(src, m, key, pos):
    """The [key=value] options at pos: (their end, their items)."""
    end = optional(src.text, pos)
    if end == pos:
        return pos, []
    at = skip_space(src.text, pos)
    return end, split_options(src.text[at + 1:end - 1], at + 1)


def arguments(src, m, count, pos):
    """(key, [(content, offset)] of the other count-1 mandatory arguments, end)."""
    found = []
    for _ in range(count):
        value, start, pos = argument(src.text, pos, src, m.group(0))
        found.append((value.strip(SPACE), start))
    return found[0][0], found[1:], pos


def abbreviation(src, m, styles, category="abbreviation", described=False):
    """\\newabbreviation[opts]{key}{short}{long} (and \\newacronym, \\newdualentry{...}{description})."""
    pos, given = optional_options(src, m, "", m.end())
    key, args, end = arguments(src, m, 4 if described else 3, pos)
    check_inside(src, m, key, m.end(), end)
    (short, at), (long, lat) = args[0], args[1]
    names = {name for name, _, _ in given}
    opts = dict((name, value) for name, value, _ in given)
    category = opts.get("category", category)
    style = styles.get(category, styles.get("abbreviation", DEFAULT_STYLES["abbreviation"]))
    name, first_use, long_is_description = STYLES[style]
    plurals = {"short": opts.get("shortplural", short + "s"), "long": opts.get("longplural", long + "s")}
    first, firstplural = first_use.format(short=short, long=long), first_use.format(**plurals)
    options = [("name", name.format(short=short, long=long), at), ("short", short, at), ("long", long, lat)]
    options += [("description", args[2][0], args[2][1])] if described else \
        [("description", long, lat)] if long_is_description or "description" not in names else []
    options += [("first", first, at), ("firstplural", firstplural, at)]
    if "shortplural" in names:
        options.append(("plural", opts["shortplural"], next(o for n, _, o in given if n == "shortplural")))
    options = [o for o in options if o[0] not in names] + given
    return key, options, end


def symbol(src, m, styles):
    """\\glsxtrnewsymbol[opts]{key}{symbol}: the symbol its name, in the symbols glossary, sorted by its
    key (glossaries-extra sets sort= to the label)."""
    pos, given = optional_options(src, m, "", m.end())
    key, args, end = arguments(src, m, 2, pos)
    check_inside(src, m, key, m.end(), end)
    names = {name for name, _, _ in given}
    options = [("name", args[0][0], args[0][1]), ("type", SYMBOLS_TYPE, args[0][1]), ("sort", key, args[0][1])]
    return key, [o for o in options if o[0] not in names] + given, end


READERS = {"newglossaryentry": new_glossary_entry, "longnewglossaryentry": long_new_glossary_entry,
           "newabbreviation": abbreviation,
           "newacronym": lambda src, m, styles: abbreviation(src, m, styles, "acronym"),
           "newdualentry": lambda src, m, styles: abbreviation(src, m, styles, described=True),
           "glsxtrnewsymbol": symbol}


def check_between(src, found, start, end):
    """Text after an entry that reads like the rest of its options: its braces closed too early."""
    stray = src.text[start:end].strip(SPACE)
    if found and stray and (stray[0] in ",}" or re.match(r"[a-z]+\s*=", stray)):
        key, at, _ = found[-1]
        raise fault(src.position(start), f"text after the entry's closing brace "
                    f"({' '.join(stray[:40].split())!r}): its braces close too early",
                    f"remove the stray '}}' between line {src.line(at)}, where the entry starts, and here", term=key,
                    kind="unbalanced-braces")


def forms_of(opts, title):
    """glossaries' defaults: text=name, first=text, plural=text+"s", firstplural=first+"s" when
    first is given, else plural; an abbreviation's short and long forms besides."""
    text = opts.get("text", title)
    first = opts.get("first", text)
    plural = opts.get("plural", text + "s")
    firstplural = opts.get("firstplural", first + "s" if "first" in opts else plural)
    forms = {"text": text, "first": first, "plural": plural, "firstplural": firstplural}
    forms.update({k: opts[k] for k in ("short", "long") if k in opts})
    return forms


def form_name(command, seen):
    """Which form of the term the command shows: glossaries' first use for \\gls and \\glspl."""
    form, upper = FORMS[command]
    if form in ("text", "plural") and command.lower() in ("gls", "glspl") and not seen:
        form = "first" if form == "text" else "firstplural"
    return form, upper


def form_text(forms, form):
    """The LaTeX of one form, with glossaries' defaults for the ones a term does not set."""
    if form in forms:
        return forms[form]
    text = forms.get("text", "")
    defaults = {"first": text, "plural": text + "s", "name": text,
                "firstplural": forms["first"] + "s" if "first" in forms else form_text(forms, "plural")}
    return defaults[form]
