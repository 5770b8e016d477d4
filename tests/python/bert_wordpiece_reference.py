#!/usr/bin/env python3
"""BERT's tokenizer written from Hugging Face's BertTokenizer (the slow tokenizer, transformers'
tokenization_bert.py and PreTrainedTokenizer.tokenize), the reference for AttnLab's LmWordPiece
(tests/base/test_lm_wordpiece.cpp runs this script; transformers itself is not installed here and
nothing may be downloaded, so the algorithm is written out from the published code):

    python3 bert_wordpiece_reference.py INPUT.json OUTDIR

INPUT.json: {"texts": [str], "pairs": [[str, str]], "corpus": [str]}. Writes
  OUTDIR/vocab.txt       a vocabulary built from the corpus: the special tokens, the 3,000 most
                         frequent words (both the lower-cased and the cased basic tokenizer's), every
                         character seen at least twice alone and as "##c", and the most frequent
                         word-initial and "##" word-final pieces of 2 to 5 characters; characters seen
                         once are left out, so [UNK] happens;
  OUTDIR/expected.json   {"configs": [{"name", "do_lower_case", "strip_accents", "ids": [[int]],
                         "pairs": [{"ids", "types"}]}], "nfc": [str], "nfd": [str], "lower": [str]}.
Everything with this Python's unicodedata (3.11: Unicode 14.0.0), as BertTokenizer would run here.
"""
import collections
import json
import os
import re
import sys
import unicodedata

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def whitespace_tokenize(text):
    text = text.strip()
    if not text:
        return []
    return text.split()


def _is_whitespace(char):
    if char == " " or char == "\t" or char == "\n" or char == "\r":
        return True
    return unicodedata.category(char) == "Zs"


def _is_control(char):
    if char == "\t" or char == "\n" or char == "\r":
        return False
    return unicodedata.category(char).startswith("C")


def _is_punctuation(char):
    cp = ord(char)
    if (cp >= 33 and cp <= 47) or (cp >= 58 and cp <= 64) or (cp >= 91 and cp <= 96) or (cp >= 123 and cp <= 126):
        return True
    return unicodedata.category(char).startswith("P")


class BasicTokenizer:
    def __init__(self, do_lower_case=True, never_split=None, tokenize_chinese_chars=True, strip_accents=None):
        self.do_lower_case = do_lower_case
        self.never_split = set(never_split or [])
        self.tokenize_chinese_chars = tokenize_chinese_chars
        self.strip_accents = strip_accents

    def tokenize(self, text, never_split=None):
        never_split = self.never_split.union(set(never_split)) if never_split else self.never_split
        text = self._clean_text(text)
        if self.tokenize_chinese_chars:
            text = self._tokenize_chinese_chars(text)
        unicode_normalized_text = unicodedata.normalize("NFC", text)
        orig_tokens = whitespace_tokenize(unicode_normalized_text)
        split_tokens = []
        for token in orig_tokens:
            if token not in never_split:
                if self.do_lower_case:
                    token = token.lower()
                    if self.strip_accents is not False:
                        token = self._run_strip_accents(token)
                elif self.strip_accents:
                    token = self._run_strip_accents(token)
            split_tokens.extend(self._run_split_on_punc(token, never_split))
        return whitespace_tokenize(" ".join(split_tokens))

    def _run_strip_accents(self, text):
        text = unicodedata.normalize("NFD", text)
        return "".join(c for c in text if unicodedata.category(c) != "Mn")

    def _run_split_on_punc(self, text, never_split=None):
        if never_split is not None and text in never_split:
            return [text]
        chars = list(text)
        i = 0
        start_new_word = True
        output = []
        while i < len(chars):
            char = chars[i]
            if _is_punctuation(char):
                output.append([char])
                start_new_word = True
            else:
                if start_new_word:
                    output.append([])
                start_new_word = False
                output[-1].append(char)
            i += 1
        return ["".join(x) for x in output]

    def _tokenize_chinese_chars(self, text):
        output = []
        for char in text:
            if self._is_chinese_char(ord(char)):
                output.extend([" ", char, " "])
            else:
                output.append(char)
        return "".join(output)

    def _is_chinese_char(self, cp):
        return ((cp >= 0x4E00 and cp <= 0x9FFF) or (cp >= 0x3400 and cp <= 0x4DBF) or (cp >= 0x20000 and cp <= 0x2A6DF)
                or (cp >= 0x2A700 and cp <= 0x2B73F) or (cp >= 0x2B740 and cp <= 0x2B81F)
                or (cp >= 0x2B820 and cp <= 0x2CEAF) or (cp >= 0xF900 and cp <= 0xFAFF)
                or (cp >= 0x2F800 and cp <= 0x2FA1F))

    def _clean_text(self, text):
        output = []
        for char in text:
            cp = ord(char)
            if cp == 0 or cp == 0xFFFD or _is_control(char):
                continue
            output.append(" " if _is_whitespace(char) else char)
        return "".join(output)


class WordpieceTokenizer:
    def __init__(self, vocab, unk_token, max_input_chars_per_word=100):
        self.vocab = vocab
        self.unk_token = unk_token
        self.max_input_chars_per_word = max_input_chars_per_word

    def tokenize(self, text):
        output_tokens = []
        for token in whitespace_tokenize(text):
            chars = list(token)
            if len(chars) > self.max_input_chars_per_word:
                output_tokens.append(self.unk_token)
                continue
            is_bad = False
            start = 0
            sub_tokens = []
            while start < len(chars):
                end = len(chars)
                cur_substr = None
                while start < end:
                    substr = "".join(chars[start:end])
                    if start > 0:
                        substr = "##" + substr
                    if substr in self.vocab:
                        cur_substr = substr
                        break
                    end -= 1
                if cur_substr is None:
                    is_bad = True
                    break
                sub_tokens.append(cur_substr)
                start = end
            if is_bad:
                output_tokens.append(self.unk_token)
            else:
                output_tokens.extend(sub_tokens)
        return output_tokens


class BertTokenizer:
    def __init__(self, vocab_file, do_lower_case=True, tokenize_chinese_chars=True, strip_accents=None):
        self.vocab = collections.OrderedDict()
        with open(vocab_file, "r", encoding="utf-8") as reader:
            tokens = reader.readlines()
        for index, token in enumerate(tokens):
            self.vocab[token.rstrip("\n")] = index
        self.do_lower_case = do_lower_case
        self.all_special_tokens = ["[UNK]", "[SEP]", "[PAD]", "[CLS]", "[MASK]"]
        self.basic_tokenizer = BasicTokenizer(do_lower_case=do_lower_case, never_split=None,
                                              tokenize_chinese_chars=tokenize_chinese_chars,
                                              strip_accents=strip_accents)
        self.wordpiece_tokenizer = WordpieceTokenizer(vocab=self.vocab, unk_token="[UNK]")

    def _trie_split(self, text):
        # tokens_trie.split for these tokens (none is a prefix of another): leftmost matches.
        out, pending, i = [], "", 0
        while i < len(text):
            hit = next((s for s in self.all_special_tokens if text.startswith(s, i)), None)
            if hit:
                if pending:
                    out.append(pending)
                pending = ""
                out.append(hit)
                i += len(hit)
            else:
                pending += text[i]
                i += 1
        if pending:
            out.append(pending)
        return out

    def tokenize(self, text):
        # PreTrainedTokenizer.tokenize
        if self.do_lower_case:
            escaped = [re.escape(s) for s in self.all_special_tokens]
            pattern = r"(" + r"|".join(escaped) + r")|" + r"(.+?)"
            text = re.sub(pattern, lambda m: m.groups()[0] or m.groups()[1].lower(), text)
        tokens = self._trie_split(text)
        for i, token in enumerate(tokens):
            if token in self.all_special_tokens:
                if i + 1 < len(tokens):
                    tokens[i + 1] = tokens[i + 1].lstrip()
                if i > 0:
                    tokens[i - 1] = tokens[i - 1].rstrip()
        out = []
        for token in tokens:
            if not token:
                continue
            if token in self.all_special_tokens:
                out.append(token)
            else:
                out.extend(self._tokenize(token))
        return out

    def _tokenize(self, text):
        split_tokens = []
        for token in self.basic_tokenizer.tokenize(text, never_split=self.all_special_tokens):
            if token in self.basic_tokenizer.never_split:
                split_tokens.append(token)
            else:
                split_tokens += self.wordpiece_tokenizer.tokenize(token)
        return split_tokens

    def ids(self, text):
        unk = self.vocab["[UNK]"]
        return [self.vocab.get(t, unk) for t in self.tokenize(text)]

    def encode(self, a, b=None):
        ids = [self.vocab["[CLS]"]] + self.ids(a) + [self.vocab["[SEP]"]]
        types = [0] * len(ids)
        if b is not None:
            second = self.ids(b) + [self.vocab["[SEP]"]]
            ids += second
            types += [1] * len(second)
        return ids, types


def build_vocab(corpus):
    words = collections.Counter()
    chars = collections.Counter()
    for lower in (True, False):
        basic = BasicTokenizer(do_lower_case=lower)
        for text in corpus:
            for w in basic.tokenize(text):
                words[w] += 1
    for w, n in words.items():
        for c in w:
            chars[c] += n
    vocab = list(SPECIALS)
    seen = set(vocab)

    def add(t):
        if t not in seen:
            seen.add(t)
            vocab.append(t)

    for c, n in sorted(chars.items(), key=lambda kv: (-kv[1], kv[0])):
        if n >= 2:
            add(c)
            add("##" + c)
    heads, tails = collections.Counter(), collections.Counter()
    for w, n in words.items():
        for k in range(2, 6):
            if len(w) > k:
                heads[w[:k]] += n
                tails["##" + w[-k:]] += n
    for w, _ in sorted(words.items(), key=lambda kv: (-kv[1], kv[0]))[:3000]:
        add(w)
    for counter in (heads, tails):
        for t, _ in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[:1500]:
            add(t)
    return vocab


def main():
    source, outdir = sys.argv[1], sys.argv[2]
    with open(source, encoding="utf-8") as f:
        data = json.load(f)
    vocab = build_vocab(data["corpus"])
    vocab_file = os.path.join(outdir, "vocab.txt")
    with open(vocab_file, "w", encoding="utf-8", newline="\n") as f:
        for t in vocab:
            f.write(t + "\n")
    configs = []
    for name, lower, strip in (("uncased", True, None), ("cased", False, None), ("uncased-keep-accents", True, False),
                               ("cased-strip-accents", False, True)):
        t = BertTokenizer(vocab_file, do_lower_case=lower, strip_accents=strip)
        configs.append({
            "name": name, "do_lower_case": lower, "strip_accents": strip,
            "ids": [t.encode(x)[0] for x in data["texts"]],
            "pairs": [dict(zip(("ids", "types"), t.encode(a, b))) for a, b in data["pairs"]],
        })
    out = {"configs": configs,
           "nfc": [unicodedata.normalize("NFC", x) for x in data["texts"]],
           "nfd": [unicodedata.normalize("NFD", x) for x in data["texts"]],
           "lower": [x.lower() for x in data["texts"]]}
    with open(os.path.join(outdir, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
