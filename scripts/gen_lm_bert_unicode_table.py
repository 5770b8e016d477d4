#!/usr/bin/env python3
"""Writes core/base/lm/LmBertUnicodeTable.inc: the Unicode data of BERT's tokenizer (LmWordPiece).

Hugging Face's BertTokenizer (transformers' tokenization_bert.py, the slow tokenizer: the reference
definition) asks Python's own `unicodedata` and `str` methods, so the tables come from them, from the
Python that runs this script (Python 3.11: Unicode 14.0.0; a newer Python gives a newer Unicode,
and BertTokenizer run under it behaves accordingly):
  - flags per code point (ranges of equal flags):
      BERT_MN      unicodedata.category(c) == "Mn"       (_run_strip_accents drops these after NFD)
      BERT_PUNCT   _is_punctuation(c): ASCII 33-47, 58-64, 91-96, 123-126, or a P* category
      BERT_CONTROL _is_control(c): a C* category (Cc Cf Cs Co Cn: unassigned code points too), not \\t \\n \\r
      BERT_WHITE   _is_whitespace(c): " " \\t \\n \\r or category Zs
      BERT_SPACE   c.isspace(): what str.split() (whitespace_tokenize) splits on
      BERT_CASE_IGNORABLE, BERT_CASED: Python's own Case_Ignorable and Cased as str.lower() uses them
                   for the final sigma (read back through str.lower() itself)
  - str.lower() of every code point whose lower case differs (U+03A3 aside: its lower case depends on
    the context, the final-sigma rule); at most two code points (U+0130 is "i" U+0307);
  - the full canonical decomposition (NFD) of every code point that has one (Hangul syllables aside:
    they decompose by arithmetic), the canonical combining classes, and the primary composites
    (pairs NFC composes: a two-code-point canonical decomposition that NFC(decomposition) gives back).

A development-time tool: the build does not run it. Run it again and commit the result:
    /usr/bin/python3 scripts/gen_lm_bert_unicode_table.py > core/base/lm/LmBertUnicodeTable.inc
"""
import sys
import unicodedata

MN, PUNCT, CONTROL, WHITE, SPACE, CASE_IGNORABLE, CASED = 1, 2, 4, 8, 16, 32, 64


def is_punctuation(c):
    cp = ord(c)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(c).startswith("P")


def is_control(c):
    if c in "\t\n\r":
        return False
    return unicodedata.category(c).startswith("C")


def is_whitespace(c):
    return c in " \t\n\r" or unicodedata.category(c) == "Zs"


def sigma_classes(c):
    # str.lower() gives U+03A3 its final form when a cased letter precedes it (case-ignorable ones
    # skipped) and none follows. "A\u03a3" + c + "A": sigma (not final) iff c is case-ignorable or
    # cased; "A\u03a3" + c: final iff c is case-ignorable or not cased.
    ignorable_or_cased = ("A\u03a3" + c + "A").lower()[1] == "\u03c3"
    if not ignorable_or_cased:
        return 0
    if ("A\u03a3" + c).lower()[1] == "\u03c2":
        return CASE_IGNORABLE
    return CASED


def flags_of(cp):
    c = chr(cp)
    f = 0
    if unicodedata.category(c) == "Mn":
        f |= MN
    if is_punctuation(c):
        f |= PUNCT
    if is_control(c):
        f |= CONTROL
    if is_whitespace(c):
        f |= WHITE
    if c.isspace():
        f |= SPACE
    if cp != 0x3A3 and not 0xD800 <= cp <= 0xDFFF:
        f |= sigma_classes(c)
    return f


def write_items(out, items, width=110):
    line = ""
    for item in items:
        if len(line) + len(item) + 1 > width:
            out.write(line.rstrip() + "\n")
            line = ""
        line += item + " "
    if line:
        out.write(line.rstrip() + "\n")


def main():
    out = sys.stdout
    flags = []  # (first, last, flags)
    for cp in range(0x110000):
        f = flags_of(cp)
        if flags and flags[-1][2] == f:
            flags[-1] = (flags[-1][0], cp, f)
        else:
            flags.append((cp, cp, f))
    lower = []
    for cp in range(0x110000):
        if cp == 0x3A3 or 0xD800 <= cp <= 0xDFFF:
            continue
        low = chr(cp).lower()
        if low != chr(cp):
            assert len(low) <= 2, hex(cp)
            lower.append((cp, ord(low[0]), ord(low[1]) if len(low) > 1 else 0))
    nfd = []
    pool = []
    ccc = []
    compose = []
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        c = chr(cp)
        k = unicodedata.combining(c)
        if k:
            if ccc and ccc[-1][2] == k and ccc[-1][1] == cp - 1:
                ccc[-1] = (ccc[-1][0], cp, k)
            else:
                ccc.append((cp, cp, k))
        if 0xAC00 <= cp <= 0xD7A3:
            continue
        d = unicodedata.normalize("NFD", c)
        if d != c:
            nfd.append((cp, len(pool), len(d)))
            pool.extend(ord(x) for x in d)
        raw = unicodedata.decomposition(c)
        if raw and not raw.startswith("<"):
            parts = [int(x, 16) for x in raw.split()]
            if len(parts) == 2 and unicodedata.normalize("NFC", chr(parts[0]) + chr(parts[1])) == c:
                compose.append((parts[0], parts[1], cp))
    compose.sort()
    assert max(n for _, _, n in nfd) <= 4
    out.write("// Generated by scripts/gen_lm_bert_unicode_table.py: do not edit by hand.\n")
    out.write("//   /usr/bin/python3 scripts/gen_lm_bert_unicode_table.py > core/base/lm/LmBertUnicodeTable.inc\n")
    out.write("// Source: Python %s's unicodedata (Unicode %s) and str.lower() / str.isspace(), as\n"
              "// Hugging Face's BertTokenizer sees them under that Python.\n"
              % (sys.version.split()[0], unicodedata.unidata_version))
    out.write("// %d flag ranges, %d lower-case mappings, %d canonical decompositions (%d code points),\n"
              "// %d combining-class ranges, %d primary composites.\n"
              % (len(flags), len(lower), len(nfd), len(pool), len(ccc), len(compose)))
    out.write("#ifdef ATTNLAB_BERT_FLAGS\n// {first, last, flags}: Mn 1, punctuation 2, control 4, "
              "white space 8, isspace 16, case-ignorable 32, cased 64.\n")
    write_items(out, ["{0x%X, 0x%X, %d}," % r for r in flags])
    out.write("#endif\n#ifdef ATTNLAB_BERT_LOWER\n// {code point, lower case, second code point or 0}\n")
    write_items(out, ["{0x%X, 0x%X, 0x%X}," % r for r in lower])
    out.write("#endif\n#ifdef ATTNLAB_BERT_NFD\n// {code point, offset in the pool, length}\n")
    write_items(out, ["{0x%X, %d, %d}," % r for r in nfd])
    out.write("#endif\n#ifdef ATTNLAB_BERT_NFD_POOL\n")
    write_items(out, ["0x%X," % x for x in pool])
    out.write("#endif\n#ifdef ATTNLAB_BERT_CCC\n// {first, last, canonical combining class}\n")
    write_items(out, ["{0x%X, 0x%X, %d}," % r for r in ccc])
    out.write("#endif\n#ifdef ATTNLAB_BERT_COMPOSE\n// {first, second, composite}, sorted\n")
    write_items(out, ["{0x%X, 0x%X, 0x%X}," % r for r in compose])
    out.write("#endif\n")


if __name__ == "__main__":
    main()
