"""glossary.mathml on the MathML the pinned pandoc writes (texmath's): \\mathbf upright bold, \\boldsymbol
and \\bm bold italic as TeX prints them, thin spaces beside operator names and \\left…\\right groups,
plain delimiters around what is no taller than a line; markup it does not know left as it is.  The
page in Chromium: tests/test_layout.py."""
import re

from glossary import mathml, prose


def mathml_of(tex):
    """pandoc's HTML of one formula (from LaTeX, as the prose's reader gives it)."""
    out = prose.run_pandoc(["-f", "latex", *prose.WRITERS["html"]], tex)
    return re.search(r"<math\b.*?</math>", out, re.S).group(0)


def identifiers(markup):
    return re.findall(r"<mi\b[^>]*>([^<]*)</mi>", markup)


def between(markup, left, right):
    """The markup between the end of `left` and the start of `right`."""
    start = markup.index(left) + len(left)
    return markup[start:markup.index(right, start)]


def test_mathbf_is_upright_and_boldsymbol_italic_as_in_print():
    before = mathml_of(r"$\mathbf{A}\mathbf{x} = \boldsymbol{\mu} + \bm{w} + \boldsymbol{b}\mathbf{B}$")
    after = mathml.tidy(before)
    # texmath writes every one of them bold italic; TeX prints \mathbf upright.
    assert identifiers(before)[:2] == ["\U0001D468", "\U0001D499"]
    assert identifiers(after)[:2] == ["\U0001D400", "\U0001D431"]
    assert 'mathvariant="bold">\U0001D400<' in after
    assert "\U0001D498" in identifiers(after) and "\U0001D483" in identifiers(after)   # \bm{w}, \boldsymbol{b}
    assert "\U0001D401" in identifiers(after)       # \mathbf{B}
    assert "\U0001D741" in identifiers(after)       # \boldsymbol{\mu}: Greek keeps its italic
    # The annotation (the TeX) is the reader's, untouched.
    assert after.count("annotation") == before.count("annotation")
    assert re.sub(r"<semantics>.*?<annotation", "", after, flags=re.S) == \
        re.sub(r"<semantics>.*?<annotation", "", before, flags=re.S)


def test_operator_names_get_tex_s_thin_space():
    after = mathml.tidy(mathml_of(r"$2\log x + \log(x) + \sin\theta\cos\theta + \max_{i} a_{i} + x_{\log n}$"))
    thin = mathml.THIN
    assert between(after, ">2</mn>", "log</mi>").count(thin) == 1          # 2\log: ordinary, operator
    assert between(after, "log</mi>", "<mi>x</mi>").count(thin) == 1       # \log x
    assert thin not in between(after, "+</mo>", "log</mi>")               # + \log: the + spaces itself
    second = after.index("log</mi>", after.index("log</mi>") + 1)
    assert thin not in after[second:after.index("(</mo>", second)]          # \log(x)
    assert between(after, "cos</mi>", "<mi>θ</mi>").count(thin) == 1
    assert between(after, "</msub>", "<mi>a</mi>").count(thin) == 1        # \max_{i} a_{i}: after the limits
    assert after.count(thin) == 6                                           # none inside x_{\log n}


def test_left_right_around_a_line_is_plain_and_spaced_as_an_inner_atom():
    after = mathml.tidy(mathml_of(r"$f\left(\mathbf{x}\right) + \left(\frac{a}{b}\right)$"))
    group = between(after, "<mi>f</mi>", "+</mo>")
    assert group.startswith(mathml.THIN) and group.count('stretchy="false"') == 2
    shown = mathml.tidy(mathml_of(r"$$\left(\frac{a}{b}\right) \left[\sum_{i} x_{i}\right]$$"))
    assert 'stretchy="false"' not in shown and shown.count('stretchy="true"') == 4


def test_markup_it_does_not_know_is_left_as_it_is():
    for broken in ('<math><mi mathvariant="bold-italic">\U0001D468</mi></mrow></math>',
                   '<math><mrow><mi mathvariant="bold-italic">\U0001D468</mi></math>', "<p>no formula</p>"):
        assert mathml.tidy(broken) == broken
    markup = mathml_of(r"$a + b$")
    assert mathml.tidy(markup) == markup


def test_a_scripted_group_keeps_base_and_scripts_and_is_spaced_outside():
    """\\left\\lVert x \\right\\rVert_{2}^{2} is <msubsup>(group, 2, 2): a thin space inside it would be read as
    its first script and push the others out of place (the real site's ‖x‖₂² showed "‖x‖ 22")."""
    after = mathml.tidy(mathml_of(r"$a\left\lVert x \right\rVert_{2}^{2} + \left( x \right)^{T} b$"))
    for script in re.findall(r"<(msubsup|msup)>(.*?)</\1>", after, re.S):
        assert mathml.THIN not in script[1], after
    assert re.search(r"<mi>a</mi>" + re.escape(mathml.THIN) + "<msubsup>", after), after
    assert re.search("</msup>" + re.escape(mathml.THIN) + "<mi>b</mi>", after), after


def test_a_prime_follows_its_letter_in_the_line():
    after = mathml.tidy(mathml_of(r"$d' + f''(x) + x^{2}$"))
    assert "<mrow><mi>d</mi><mo>′</mo></mrow>" in after and "<mrow><mi>f</mi><mo>″</mo></mrow>" in after
    assert "<msup><mi>x</mi><mn>2</mn></msup>" in after


def test_displayed_lines_are_in_display_style_and_a_matrix_in_them_is_not():
    after = mathml.tidy(mathml_of(r"\begin{align} w = \frac{1}{\eta} \begin{pmatrix} \frac{1}{2} \end{pmatrix} \\ v = 1"
                                  r"\end{align}"))
    tables = re.findall(r"<mtable\b[^>]*>", after)
    # the align's lines, as TeX sets them: MathML Core would set the table's cells compact
    assert tables[0] == '<mtable displaystyle="true">', tables
    assert tables[1:] == ["<mtable>"], tables                                   # the matrix: text style
    inline = mathml.tidy(mathml_of(r"$\begin{pmatrix} 1 \end{pmatrix}$"))
    assert "displaystyle" not in inline


def test_an_operator_made_by_mathop_takes_its_limits_below_in_a_display_alone():
    display = mathml.tidy(mathml_of(r"$$\mathop{\mathrm{arg\,min}}_{w} f(w) + \log_2 x"
                                    r" + y_{\mathop{\mathrm{arg\,min}}_i}$$"))
    assert re.search(r"<munder><mrow><mi mathvariant=\"normal\">arg\smin</mi>", display)  # a thin space
    assert re.search(r"<msub><mrow><mi mathvariant=\"normal\">log</mi>", display)    # \log_2: beside
    assert display.count("<munder>") == 1                                          # not in a script
    inline = mathml.tidy(mathml_of(r"$\mathop{\mathrm{arg\,min}}_{w} f(w)$"))
    assert "<munder>" not in inline and re.search(r"<msub><mrow><mi mathvariant=\"normal\">arg\smin", inline)


def test_an_inline_formula_keeps_the_punctuation_touching_it_on_its_line():
    after = mathml.tidy(prose.run_pandoc(["-f", "latex", *prose.WRITERS["html"]],
                                         r"For $f(\cdot)$. Then ($x$), and $y$ is $$z.$$ done."))
    assert re.findall(r'<span class="math-stops">(?:<span class="math-before">(\()</span>)?<math[^>]*>.*?</math>'
                      r'([^<]*)</span>', after) == [("", "."), ("(", "),")]
    assert after.count("math-stops") == 2                   # $y$ touches nothing, $$z.$$ is a display
    assert mathml.tidy(after) == after


def test_a_norms_bars_touch_what_they_enclose_and_parallel_keeps_its_space():
    after = mathml.tidy(mathml_of(r"$\left\lVert x \right\rVert_2^2 + a \parallel b$"))
    bars = re.findall(r"<mo\b[^>]*>∥</mo>", after)
    # Chromium spaces U+2225 as the relation 5/18 em each side, inside the bars too; TeX's delimiters have none
    assert bars[:2] == ['<mo stretchy="false" form="prefix" lspace="0" rspace="0">∥</mo>',
                        '<mo stretchy="false" form="postfix" lspace="0" rspace="0">∥</mo>'], bars
    assert bars[2] == "<mo>∥</mo>"                                      # a ∥ b: the relation
