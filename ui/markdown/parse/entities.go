package parse

// entity is the text of the named character reference &name;, for the
// names of HTML 4 (and apos, check, cross, star, starf): the ones a
// model writes. A switch, so nothing is built at initialisation.
func entity(name string) (string, bool) {
	switch name {
	case "AElig":
		return "Æ", true
	case "Aacute":
		return "Á", true
	case "Acirc":
		return "Â", true
	case "Agrave":
		return "À", true
	case "Alpha":
		return "Α", true
	case "Aring":
		return "Å", true
	case "Atilde":
		return "Ã", true
	case "Auml":
		return "Ä", true
	case "Beta":
		return "Β", true
	case "Ccedil":
		return "Ç", true
	case "Chi":
		return "Χ", true
	case "Dagger":
		return "‡", true
	case "Delta":
		return "Δ", true
	case "ETH":
		return "Ð", true
	case "Eacute":
		return "É", true
	case "Ecirc":
		return "Ê", true
	case "Egrave":
		return "È", true
	case "Epsilon":
		return "Ε", true
	case "Eta":
		return "Η", true
	case "Euml":
		return "Ë", true
	case "Gamma":
		return "Γ", true
	case "Iacute":
		return "Í", true
	case "Icirc":
		return "Î", true
	case "Igrave":
		return "Ì", true
	case "Iota":
		return "Ι", true
	case "Iuml":
		return "Ï", true
	case "Kappa":
		return "Κ", true
	case "Lambda":
		return "Λ", true
	case "Mu":
		return "Μ", true
	case "Ntilde":
		return "Ñ", true
	case "Nu":
		return "Ν", true
	case "OElig":
		return "Œ", true
	case "Oacute":
		return "Ó", true
	case "Ocirc":
		return "Ô", true
	case "Ograve":
		return "Ò", true
	case "Omega":
		return "Ω", true
	case "Omicron":
		return "Ο", true
	case "Oslash":
		return "Ø", true
	case "Otilde":
		return "Õ", true
	case "Ouml":
		return "Ö", true
	case "Phi":
		return "Φ", true
	case "Pi":
		return "Π", true
	case "Prime":
		return "″", true
	case "Psi":
		return "Ψ", true
	case "Rho":
		return "Ρ", true
	case "Scaron":
		return "Š", true
	case "Sigma":
		return "Σ", true
	case "THORN":
		return "Þ", true
	case "Tau":
		return "Τ", true
	case "Theta":
		return "Θ", true
	case "Uacute":
		return "Ú", true
	case "Ucirc":
		return "Û", true
	case "Ugrave":
		return "Ù", true
	case "Upsilon":
		return "Υ", true
	case "Uuml":
		return "Ü", true
	case "Xi":
		return "Ξ", true
	case "Yacute":
		return "Ý", true
	case "Yuml":
		return "Ÿ", true
	case "Zeta":
		return "Ζ", true
	case "aacute":
		return "á", true
	case "acirc":
		return "â", true
	case "acute":
		return "´", true
	case "aelig":
		return "æ", true
	case "agrave":
		return "à", true
	case "alefsym":
		return "ℵ", true
	case "alpha":
		return "α", true
	case "amp":
		return "&", true
	case "and":
		return "∧", true
	case "ang":
		return "∠", true
	case "apos":
		return "'", true
	case "aring":
		return "å", true
	case "asymp":
		return "≈", true
	case "atilde":
		return "ã", true
	case "auml":
		return "ä", true
	case "bdquo":
		return "„", true
	case "beta":
		return "β", true
	case "brvbar":
		return "¦", true
	case "bull":
		return "•", true
	case "cap":
		return "∩", true
	case "ccedil":
		return "ç", true
	case "cedil":
		return "¸", true
	case "cent":
		return "¢", true
	case "check":
		return "✓", true
	case "chi":
		return "χ", true
	case "circ":
		return "ˆ", true
	case "clubs":
		return "♣", true
	case "cong":
		return "≅", true
	case "copy":
		return "©", true
	case "crarr":
		return "↵", true
	case "cross":
		return "✗", true
	case "cup":
		return "∪", true
	case "curren":
		return "¤", true
	case "dArr":
		return "⇓", true
	case "dagger":
		return "†", true
	case "darr":
		return "↓", true
	case "deg":
		return "°", true
	case "delta":
		return "δ", true
	case "diams":
		return "♦", true
	case "divide":
		return "÷", true
	case "eacute":
		return "é", true
	case "ecirc":
		return "ê", true
	case "egrave":
		return "è", true
	case "empty":
		return "∅", true
	case "emsp":
		return "\u2003", true
	case "ensp":
		return "\u2002", true
	case "epsilon":
		return "ε", true
	case "equiv":
		return "≡", true
	case "eta":
		return "η", true
	case "eth":
		return "ð", true
	case "euml":
		return "ë", true
	case "euro":
		return "€", true
	case "exist":
		return "∃", true
	case "fnof":
		return "ƒ", true
	case "forall":
		return "∀", true
	case "frac12":
		return "½", true
	case "frac14":
		return "¼", true
	case "frac34":
		return "¾", true
	case "frasl":
		return "⁄", true
	case "gamma":
		return "γ", true
	case "ge":
		return "≥", true
	case "gt":
		return ">", true
	case "hArr":
		return "⇔", true
	case "harr":
		return "↔", true
	case "hearts":
		return "♥", true
	case "hellip":
		return "…", true
	case "iacute":
		return "í", true
	case "icirc":
		return "î", true
	case "iexcl":
		return "¡", true
	case "igrave":
		return "ì", true
	case "image":
		return "ℑ", true
	case "infin":
		return "∞", true
	case "int":
		return "∫", true
	case "iota":
		return "ι", true
	case "iquest":
		return "¿", true
	case "isin":
		return "∈", true
	case "iuml":
		return "ï", true
	case "kappa":
		return "κ", true
	case "lArr":
		return "⇐", true
	case "lambda":
		return "λ", true
	case "lang":
		return "⟨", true
	case "laquo":
		return "«", true
	case "larr":
		return "←", true
	case "lceil":
		return "⌈", true
	case "ldquo":
		return "“", true
	case "le":
		return "≤", true
	case "lfloor":
		return "⌊", true
	case "lowast":
		return "∗", true
	case "loz":
		return "◊", true
	case "lrm":
		return "\u200e", true
	case "lsaquo":
		return "‹", true
	case "lsquo":
		return "‘", true
	case "lt":
		return "<", true
	case "macr":
		return "¯", true
	case "mdash":
		return "—", true
	case "micro":
		return "µ", true
	case "middot":
		return "·", true
	case "minus":
		return "−", true
	case "mu":
		return "μ", true
	case "nabla":
		return "∇", true
	case "nbsp":
		return "\u00a0", true
	case "ndash":
		return "–", true
	case "ne":
		return "≠", true
	case "ni":
		return "∋", true
	case "not":
		return "¬", true
	case "notin":
		return "∉", true
	case "nsub":
		return "⊄", true
	case "ntilde":
		return "ñ", true
	case "nu":
		return "ν", true
	case "oacute":
		return "ó", true
	case "ocirc":
		return "ô", true
	case "oelig":
		return "œ", true
	case "ograve":
		return "ò", true
	case "oline":
		return "‾", true
	case "omega":
		return "ω", true
	case "omicron":
		return "ο", true
	case "oplus":
		return "⊕", true
	case "or":
		return "∨", true
	case "ordf":
		return "ª", true
	case "ordm":
		return "º", true
	case "oslash":
		return "ø", true
	case "otilde":
		return "õ", true
	case "otimes":
		return "⊗", true
	case "ouml":
		return "ö", true
	case "para":
		return "¶", true
	case "part":
		return "∂", true
	case "permil":
		return "‰", true
	case "perp":
		return "⊥", true
	case "phi":
		return "φ", true
	case "pi":
		return "π", true
	case "piv":
		return "ϖ", true
	case "plusmn":
		return "±", true
	case "pound":
		return "£", true
	case "prime":
		return "′", true
	case "prod":
		return "∏", true
	case "prop":
		return "∝", true
	case "psi":
		return "ψ", true
	case "quot":
		return "\"", true
	case "rArr":
		return "⇒", true
	case "radic":
		return "√", true
	case "rang":
		return "⟩", true
	case "raquo":
		return "»", true
	case "rarr":
		return "→", true
	case "rceil":
		return "⌉", true
	case "rdquo":
		return "”", true
	case "real":
		return "ℜ", true
	case "reg":
		return "®", true
	case "rfloor":
		return "⌋", true
	case "rho":
		return "ρ", true
	case "rlm":
		return "\u200f", true
	case "rsaquo":
		return "›", true
	case "rsquo":
		return "’", true
	case "sbquo":
		return "‚", true
	case "scaron":
		return "š", true
	case "sdot":
		return "⋅", true
	case "sect":
		return "§", true
	case "shy":
		return "\u00ad", true
	case "sigma":
		return "σ", true
	case "sigmaf":
		return "ς", true
	case "sim":
		return "∼", true
	case "spades":
		return "♠", true
	case "star":
		return "☆", true
	case "starf":
		return "★", true
	case "sub":
		return "⊂", true
	case "sube":
		return "⊆", true
	case "sum":
		return "∑", true
	case "sup":
		return "⊃", true
	case "sup1":
		return "¹", true
	case "sup2":
		return "²", true
	case "sup3":
		return "³", true
	case "supe":
		return "⊇", true
	case "szlig":
		return "ß", true
	case "tau":
		return "τ", true
	case "there4":
		return "∴", true
	case "theta":
		return "θ", true
	case "thetasym":
		return "ϑ", true
	case "thinsp":
		return "\u2009", true
	case "thorn":
		return "þ", true
	case "tilde":
		return "˜", true
	case "times":
		return "×", true
	case "trade":
		return "™", true
	case "uArr":
		return "⇑", true
	case "uacute":
		return "ú", true
	case "uarr":
		return "↑", true
	case "ucirc":
		return "û", true
	case "ugrave":
		return "ù", true
	case "uml":
		return "¨", true
	case "upsih":
		return "ϒ", true
	case "upsilon":
		return "υ", true
	case "uuml":
		return "ü", true
	case "weierp":
		return "℘", true
	case "xi":
		return "ξ", true
	case "yacute":
		return "ý", true
	case "yen":
		return "¥", true
	case "yuml":
		return "ÿ", true
	case "zeta":
		return "ζ", true
	case "zwj":
		return "\u200d", true
	case "zwnj":
		return "\u200c", true
	}
	return "", false
}
