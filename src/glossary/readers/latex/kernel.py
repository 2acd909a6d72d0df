"""LaTeX's own commands (and those of the common text packages) that pandoc's LaTeX reader, with
texmath, handles in a description: what the reader counts as known rather than "unknown". The
commands of a construct with a binding of its own (glossaries, references, citations, graphics,
environments) are that binding's, not listed here."""
import re

from glossary.readers.latex.lexer import commands

TEXT = commands({"\\ "} | set((
    "\\, \\; \\: \\! \\\\ \\% \\$ \\& \\# \\_ \\{ \\} \\~ \\^ \\' \\` \\\" \\- \\/ \\@ \\= \\. "
    "\\( \\) \\[ \\] "
    "par footnote url href emph textbf textit texttt "
    "textsc textrm textsf textup textmd textsl textnormal underline mbox "
    "bf it rm tt sf sc em sl bfseries itshape ttfamily rmfamily sffamily scshape mdseries upshape "
    "normalfont small footnotesize scriptsize tiny large Large LARGE huge Huge normalsize "
    "centering raggedright raggedleft noindent indent newline linebreak pagebreak newpage clearpage "
    "hspace hspace* vspace vspace* hfill vfill smallskip medskip bigskip quad qquad enspace "
    "ldots dots S P copyright textregistered "
    "textquoteleft textquoteright textquotedblleft textquotedblright "
    "textbackslash textasciitilde textasciicircum textless textgreater textdegree "
    "LaTeX TeX today toprule midrule bottomrule hline cline multicolumn "
    "multirow textwidth linewidth columnwidth textheight hfil vfil relax protect "
    "textcolor color colorbox ensuremath xspace nolinkurl lstinline verb index "
    "sout st ul phantom hphantom vphantom").split()))
# \index{term}: an entry of the book's Index (makeidx), at the word it follows.  It stays in the body;
# pandoc keeps it raw, glossary.texprose makes it print-only (the LaTeX writer alone writes it: the book
# indexes it, an entry's PDF, without \makeindex, drops it), a page shows nothing of it.  Its term may
# hold groups one deep (Erd\H{o}s) and commands, but those that read, write or define (glossary.texprose).
INDEX = re.compile(r"\s*\\index\s*\{((?:[^{}]|\{[^{}]*\})*)\}\s*")
MATH = commands({"\\ "} | set((
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa varkappa lambda mu "
    "nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega digamma Gamma Delta "
    "Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega varGamma varDelta varTheta varLambda varXi varPi "
    "varSigma varUpsilon varPhi varPsi varOmega aleph beth hbar ell wp Re Im partial infty nabla "
    "emptyset varnothing forall exists nexists neg lnot top bot angle imath jmath "
    "mathbb mathbf mathcal mathrm mathit mathsf mathtt mathfrak mathscr mathbfit boldsymbol bm "
    "operatorname operatorname* text textrm textbf textit texttt textsf mbox "
    "frac dfrac tfrac binom sqrt choose "
    "sum prod coprod int iint iiint oint bigcup bigcap bigvee bigwedge bigoplus bigotimes bigodot "
    "bigsqcup biguplus lim liminf limsup sup inf max min arg det dim exp ln log lg "
    "sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth ker deg gcd hom Pr mod bmod "
    "pmod pod "
    "left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr "
    "langle rangle lceil rceil lfloor rfloor lvert rvert lVert rVert vert Vert | "
    "le leq ge geq ne neq lt gt ll gg approx sim simeq cong equiv propto prec preceq succ succeq "
    "subset subseteq supset supseteq subsetneq supsetneq sqsubseteq sqsupseteq in ni notin "
    "mid nmid parallel perp models vdash dashv asymp doteq triangleq coloneqq eqqcolon "
    "leqslant geqslant lesssim gtrsim ll succcurlyeq preccurlyeq "
    "pm mp times div cdot ast star circ bullet oplus ominus otimes oslash odot cup cap sqcup sqcap "
    "vee wedge setminus smallsetminus wr diamond land lor uplus amalg "
    "to gets rightarrow leftarrow Rightarrow Leftarrow leftrightarrow Leftrightarrow "
    "longrightarrow longleftarrow Longrightarrow Longleftarrow longleftrightarrow Longleftrightarrow "
    "mapsto longmapsto implies impliedby iff uparrow downarrow Uparrow Downarrow updownarrow "
    "nearrow searrow swarrow nwarrow hookrightarrow hookleftarrow rightharpoonup leftharpoonup "
    "rightleftharpoons xrightarrow xleftarrow rightsquigarrow "
    "hat widehat tilde widetilde bar overline underline vec dot ddot breve check acute grave "
    "mathring overbrace underbrace overset underset stackrel overrightarrow overleftarrow "
    "ldots cdots vdots ddots dots dotsc dotsb dotsm dotsi colon prime backslash "
    "quad qquad , ; : ! hspace mathrel mathop mathbin mathord mathopen mathclose mathpunct "
    "limits nolimits displaystyle textstyle scriptstyle scriptscriptstyle substack "
    "phantom "
    "boxed cancel color not lbrace rbrace { } \\\\ % $ & # _ "
    "square blacksquare triangle triangledown triangleleft triangleright "
    "checkmark dagger ddagger star pounds euro").split()))
# Bookkeeping of the printed book, by the number of arguments the reader takes off (glossary.texdict's
# Body.print_only): a web page numbers, colours and scales on its own.
PRINT_ONLY = {"\\refstepcounter": 1, "\\definecolor": 3, "\\thetable": 0, "\\thefigure": 0,
              "\\scalebox": 1, "\\resizebox": 2, "\\resizebox*": 2}
COMMANDS = TEXT | MATH | frozenset(PRINT_ONLY)
# Commands that define macros, in a preamble or macro file (their names count as handled).
DEFINITION = re.compile(
    r"\\(?:(?:re)?newcommand\*?|providecommand\*?|DeclareMathOperator\*?|DeclareRobustCommand\*?)"
    r"\s*\{?\s*\\([A-Za-z@]+)|\\def\s*\\([A-Za-z@]+)|\\let\s*\\([A-Za-z@]+)"
    r"|\\(?:re)?newenvironment\*?\s*\{([A-Za-z*]+)\}|\\newtheorem\*?\s*\{([A-Za-z*]+)\}")


def macro_names(texts):
    """Commands and environments the preamble and macro files define."""
    names = set()
    for text in texts:
        for m in DEFINITION.finditer(text):
            name = next(g for g in m.groups() if g)
            names.add(name if m.group(4) or m.group(5) else "\\" + name)
    return names
