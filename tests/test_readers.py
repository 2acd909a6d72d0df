"""The LaTeX readers' layout (glossary.readers.latex): one lexer, and one binding per construct that
alone knows its command and environment names."""
import re
import types

from glossary import texdict
from glossary.readers import latex
from glossary.readers.latex import lexer


def test_no_latex_command_is_known_to_two_bindings():
    owned = latex.owners()
    twice = {name: where for name, where in owned.items() if len(where) > 1}
    assert not twice, f"commands known to two bindings: {twice}"
    # what the body scanner acts on and counts as known is every binding's, and each is owned once
    scanned = texdict.STRUCTURE | set(texdict.PRINT_ONLY) | texdict.KNOWN_TEXT | texdict.KNOWN_MATH
    assert scanned <= set(owned), f"commands no binding owns: {sorted(scanned - set(owned))}"
    assert {"\\gls", "\\newacronym", "\\eqref", "\\cite", "\\includegraphics", "\\item", "\\frac"} <= set(owned)
    print(f"{len(owned)} LaTeX commands, {len(latex.BINDINGS)} bindings")


def test_no_environment_is_known_to_two_bindings():
    owned = latex.owners(kind="ENVIRONMENTS")
    assert not {name: where for name, where in owned.items() if len(where) > 1}
    assert texdict.KNOWN_ENVS | {"tikzpicture"} <= set(owned)


def test_a_command_known_twice_is_found():
    one = types.SimpleNamespace(__name__="x.one", COMMANDS=frozenset({"\\a", "\\b"}))
    two = types.SimpleNamespace(__name__="x.two", COMMANDS=frozenset({"\\b"}))
    assert latex.owners((one, two)) == {"\\a": ["one"], "\\b": ["one", "two"]}


def test_positions_are_file_line_and_column(tmp_path):
    path = tmp_path / "a.tex"
    path.write_text("% a comment\n\\begin{figure} x % another\n  \\gls{k}\\end{figure}\n")
    src = lexer.Source(path, "a.tex")
    assert src.text == "%\n\\begin{figure} x %\n  \\gls{k}\\end{figure}\n"
    found = [(t.kind, t.text, str(t.position(src))) for t in lexer.tokens(src)]
    assert found == [("begin", "figure", "a.tex:2:1"), ("command", "\\gls", "a.tex:3:3"),
                     ("open", "{", "a.tex:3:7"), ("close", "}", "a.tex:3:9"), ("end", "figure", "a.tex:3:10")]
    assert lexer.environments(src) == [("figure", 2, len(src.text) - 1)]


def test_groups_arguments_and_options():
    text = r"\x[a={[b]}, c]{d{e}\}f} {g} rest"
    assert lexer.optional(text, 2) == 14
    content, start, end = lexer.argument(text, 14, None, "\\x")
    assert content == r"d{e}\}f" and text[end:end + 4] == " {g}"
    assert lexer.group_end(text, 14) == end and lexer.group_end("{never", 0) is None
    assert lexer.group_end(text, 2) == 14  # a bracket group, its braces inside
    options = "{name={A, B}, text=a\\,b, flag}"
    end, items = lexer.options_group(options, 0)
    # a value's offset is where it starts; a name without a value's, just after the name
    assert end == len(options) and items == [("name", "A, B", options.index("A")),
                                              ("text", "a\\,b", options.index("a\\")),
                                              ("flag", None, options.index("flag") + 5)]
    assert lexer.cut_top(r"a \and {b \and c} \and d", re.compile(r"\\and")) == ["a ", " {b \\and c} ", " d"]
    assert lexer.strip_comments("a\\%b%c\n\\\\%d\n") == "a\\%b%\n\\\\%\n"
    assert lexer.strip_comments("a%c\nb", mark="") == "a\nb"
