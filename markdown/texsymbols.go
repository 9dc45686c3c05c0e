package markdown

// The TeX commands texMathML knows, by what they become in MathML.

// texIdentifiers are letters and symbols drawn as identifiers.
var texIdentifiers = map[string]string{
	"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε", "zeta": "ζ",
	"eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν",
	"xi": "ξ", "omicron": "ο", "pi": "π", "varpi": "ϖ", "rho": "ρ", "varrho": "ϱ", "sigma": "σ", "varsigma": "ς",
	"tau": "τ", "upsilon": "υ", "phi": "ϕ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
	"Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ",
	"Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
	"infty": "∞", "partial": "∂", "nabla": "∇", "emptyset": "∅", "varnothing": "∅", "ell": "ℓ", "hbar": "ℏ",
	"aleph": "ℵ", "Re": "ℜ", "Im": "ℑ", "wp": "℘", "imath": "ı", "jmath": "ȷ", "top": "⊤", "bot": "⊥",
	"angle": "∠", "triangle": "△", "square": "□", "checkmark": "✓", "dagger": "†", "ddagger": "‡",
}

// texOperators are operators, relations, arrows and punctuation.
var texOperators = map[string]string{
	"pm": "±", "mp": "∓", "times": "×", "div": "÷", "cdot": "⋅", "ast": "∗", "star": "⋆", "circ": "∘",
	"bullet": "∙", "oplus": "⊕", "ominus": "⊖", "otimes": "⊗", "odot": "⊙", "setminus": "∖",
	"cup": "∪", "cap": "∩", "sqcup": "⊔", "sqcap": "⊓", "vee": "∨", "lor": "∨", "wedge": "∧", "land": "∧",
	"neg": "¬", "lnot": "¬", "forall": "∀", "exists": "∃", "nexists": "∄",
	"leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "ll": "≪", "gg": "≫",
	"leqslant": "⩽", "geqslant": "⩾", "approx": "≈", "equiv": "≡", "sim": "∼", "simeq": "≃", "cong": "≅",
	"propto": "∝", "doteq": "≐", "prec": "≺", "succ": "≻", "preceq": "⪯", "succeq": "⪰",
	"in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "supset": "⊃", "subseteq": "⊆", "supseteq": "⊇",
	"subsetneq": "⊊", "supsetneq": "⊋", "mid": "∣", "nmid": "∤", "parallel": "∥", "perp": "⊥",
	"vdash": "⊢", "dashv": "⊣", "models": "⊨", "colon": ":", "coloneqq": "≔",
	"to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "leftrightarrow": "↔", "mapsto": "↦",
	"Rightarrow": "⇒", "Leftarrow": "⇐", "Leftrightarrow": "⇔", "implies": "⟹", "impliedby": "⟸", "iff": "⟺",
	"longrightarrow": "⟶", "longleftarrow": "⟵", "longmapsto": "⟼", "uparrow": "↑", "downarrow": "↓",
	"hookrightarrow": "↪", "rightleftharpoons": "⇌", "nearrow": "↗", "searrow": "↘",
	"ldots": "…", "dots": "…", "cdots": "⋯", "vdots": "⋮", "ddots": "⋱", "dotsc": "…", "dotsb": "⋯",
	"prime": "′", "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉",
	"lvert": "|", "rvert": "|", "vert": "|", "lVert": "‖", "rVert": "‖", "Vert": "‖", "|": "‖",
	"{": "{", "}": "}", "lbrace": "{", "rbrace": "}", "backslash": "∖", "%": "%", "$": "$", "#": "#",
	"&": "&amp;", "_": "_", "mod": "mod", "bmod": "mod", "degree": "°",
}

// texDelimiters are what \left, \right and \big take by name.
var texDelimiters = map[string]string{
	"{": "{", "}": "}", "lbrace": "{", "rbrace": "}", "|": "‖", "Vert": "‖", "vert": "|", "lvert": "|",
	"rvert": "|", "lVert": "‖", "rVert": "‖", "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋",
	"lceil": "⌈", "rceil": "⌉", "backslash": "∖", "uparrow": "↑", "downarrow": "↓",
}

// texLargeOperators take their limits under and over in display math.
var texLargeOperators = map[string]string{
	"sum": "∑", "prod": "∏", "coprod": "∐", "bigcup": "⋃", "bigcap": "⋂", "bigvee": "⋁", "bigwedge": "⋀",
	"bigoplus": "⨁", "bigotimes": "⨂", "bigodot": "⨀", "bigsqcup": "⨆",
}

// texIntegrals take their limits as scripts.
var texIntegrals = map[string]string{
	"int": "∫", "iint": "∬", "iiint": "∭", "oint": "∮", "smallint": "∫",
}

// texFunctions are upright names followed by function application.
var texFunctions = map[string]bool{
	"sin": true, "cos": true, "tan": true, "cot": true, "sec": true, "csc": true, "arcsin": true,
	"arccos": true, "arctan": true, "sinh": true, "cosh": true, "tanh": true, "coth": true, "log": true,
	"ln": true, "lg": true, "exp": true, "deg": true, "dim": true, "hom": true, "ker": true, "arg": true,
}

// texLimitFunctions are upright names that take limits under them.
var texLimitFunctions = map[string]bool{
	"lim": true, "max": true, "min": true, "sup": true, "inf": true, "det": true, "gcd": true,
	"liminf": true, "limsup": true, "Pr": true, "argmax": true, "argmin": true,
}

// texSpaces are the spacing commands, by width.
var texSpaces = map[string]string{
	",": "0.1667em", "thinspace": "0.1667em", ":": "0.2222em", ">": "0.2222em", "medspace": "0.2222em",
	";": "0.2778em", "thickspace": "0.2778em", "quad": "1em", "qquad": "2em", " ": "0.3333em",
	"!": "-0.1667em", "negthinspace": "-0.1667em", "enspace": "0.5em",
}

// texAccents are drawn over their argument.
var texAccents = map[string]string{
	"hat": "^", "widehat": "^", "bar": "‾", "overline": "‾", "vec": "→", "overrightarrow": "→",
	"overleftarrow": "←", "tilde": "~", "widetilde": "~", "dot": "˙", "ddot": "¨", "check": "ˇ",
	"breve": "˘", "acute": "´", "grave": "`",
}

// texFonts set the alphabet of letters in their argument.
var texFonts = map[string]string{
	"mathrm": "rm", "mathbf": "bf", "boldsymbol": "bf", "bm": "bf", "mathbb": "bb", "mathcal": "cal",
	"mathscr": "cal", "mathfrak": "frak", "mathsf": "sf", "mathtt": "tt", "mathit": "",
}

// texTextFonts take their argument as text.
var texTextFonts = map[string]string{
	"text": "", "textrm": "", "textnormal": "", "mbox": "", "textit": "", "textbf": "bf", "textsf": "sf", "texttt": "tt",
}

// texAlphabet is where a font's letters and digits start in Unicode's
// mathematical alphanumerics, and the letters encoded elsewhere.
type texAlphabet struct {
	upper, lower, digits rune
	exceptions           map[rune]rune
}

var texAlphabets = map[string]texAlphabet{
	"bf": {upper: 0x1D400, lower: 0x1D41A, digits: 0x1D7CE},
	"bb": {upper: 0x1D538, lower: 0x1D552, digits: 0x1D7D8, exceptions: map[rune]rune{
		'C': 'ℂ', 'H': 'ℍ', 'N': 'ℕ', 'P': 'ℙ', 'Q': 'ℚ', 'R': 'ℝ', 'Z': 'ℤ'}},
	"cal": {upper: 0x1D49C, lower: 0x1D4B6, exceptions: map[rune]rune{
		'B': 'ℬ', 'E': 'ℰ', 'F': 'ℱ', 'H': 'ℋ', 'I': 'ℐ', 'L': 'ℒ', 'M': 'ℳ', 'R': 'ℛ', 'e': 'ℯ', 'g': 'ℊ', 'o': 'ℴ'}},
	"frak": {upper: 0x1D504, lower: 0x1D51E, exceptions: map[rune]rune{
		'C': 'ℭ', 'H': 'ℌ', 'I': 'ℑ', 'R': 'ℜ', 'Z': 'ℨ'}},
	"sf": {upper: 0x1D5A0, lower: 0x1D5BA, digits: 0x1D7E2},
	"tt": {upper: 0x1D670, lower: 0x1D68A, digits: 0x1D7F6},
}

// texCharOperators are typed characters that MathML draws differently.
var texCharOperators = map[string]string{
	"-": "−", "*": "∗", "<": "&lt;", ">": "&gt;", "&": "&amp;",
}
