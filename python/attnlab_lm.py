"""An AttnLab language model in PyTorch: the network, the tokenizer and the checkpoint.

Exported by ``attnlab-cli export --model LM.safetensors --pytorch DIR`` for a model trained
with ``attnlab-cli train --task lm`` (or in the window's Language model task). Needs only
PyTorch and the Python standard library: the .safetensors file is read and written here.

    import attnlab_lm
    model = attnlab_lm.load("lm.safetensors")
    ids = model.encode("ba ko ba")             # <bos> first, then AttnLab's ids: [1, 4, 32, 4]
    logits = model(ids)                        # [1, T, V]: a torch.nn.Module's forward
    reading = model.attend("ba ko ba")         # what `attnlab-cli attend --json` prints
    reading["attention"][1][2]                 # layer 2, head 3: [query][key]
    reading["next"][0]                         # {"id", "token", "logprob"}: the most probable
    model.generate("ba ko ba", 8)["text"]      # greedy, as `attnlab-cli generate --json`
    model.save("copy.safetensors")             # an AttnLab checkpoint again

The model is a ``torch.nn.Module`` whose parameter names are the checkpoint's tensor names
(``model.state_dict()`` holds the file's tensors), so it can be trained like any PyTorch
model (``model.loss(texts)`` is AttnLab's training loss) and saved back for AttnLab.

The network, as core/engine/lm/LmNet.cpp builds it (the config in the file says which
parts a model has):

    x = token embedding + position (a learned table, or the fixed sinusoidal one)
    each layer:  x = x + Attention(LN1(x))            causal, or both ways (masked objective)
                 x = x + W2 GELU_tanh(W1 LN2(x))      unless attention-only
    logits = Unembed(LN_final(x))                     Unembed: its own matrix or the token
                                                      embedding's (tied); no bias
    LN1, LN2, LN_final exist with norm "pre" (GPT-2's form) and are the identity with "none".
"""

import json
import math
import os
import random
import re
import struct
import sys
import unicodedata
from functools import lru_cache

import torch
import torch.nn as nn
import torch.nn.functional as F

__all__ = ["ModelFileError", "LmConfig", "Tokenizer", "LanguageModel", "load", "read_safetensors",
           "write_safetensors"]

FORMAT_VERSION = 1
TASK = "lm"                      # a checkpoint's "task" metadata
MAX_HEADER_BYTES = 16 * 1024 * 1024


class ModelFileError(Exception):
    """A file that is not a usable AttnLab language model; the message is 'FILE: reason'."""

    def __init__(self, path, reason):
        super().__init__("%s: %s" % (path, reason))
        self.path = path
        self.reason = reason


# ---------------------------------------------------------------------------------------
# safetensors: 8 bytes of little-endian header length N, N bytes of JSON (each tensor's
# dtype, shape and byte range, and "__metadata__": strings), then the tensors' bytes.
# AttnLab writes float32 ("F32") only. The same code as attnlab.py's, shortened.

def read_safetensors(path):
    """The file's tensors as [(name, float32 tensor)] in file order, and its metadata dict."""
    path = os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ModelFileError(path, "cannot read: %s" % (e.strerror or e)) from None
    if len(data) < 8:
        raise ModelFileError(path, "too short for a safetensors file (%d bytes)" % len(data))
    (n,) = struct.unpack("<Q", data[:8])
    if n > len(data) - 8 or n > MAX_HEADER_BYTES:
        raise ModelFileError(path, "header length %d does not fit the file (%d bytes)" % (n, len(data)))
    try:
        header = json.loads(data[8:8 + n].decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise ModelFileError(path, "invalid header JSON") from None
    if not isinstance(header, dict):
        raise ModelFileError(path, "the header is not a JSON object")
    metadata = header.pop("__metadata__", {})
    if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
        raise ModelFileError(path, "__metadata__ is not an object of strings")
    buffer = data[8 + n:]
    records = []
    for name, entry in header.items():
        try:
            dtype, shape, (begin, end) = entry["dtype"], entry["shape"], entry["data_offsets"]
        except (TypeError, KeyError, ValueError):
            raise ModelFileError(path, "tensor '%s': not {dtype, shape, data_offsets}" % name) from None
        if dtype != "F32":
            raise ModelFileError(path, "tensor '%s': dtype %s, not F32" % (name, dtype))
        if not isinstance(shape, list) or not all(type(d) is int and d >= 0 for d in shape):
            raise ModelFileError(path, "tensor '%s': a bad shape %s" % (name, shape))
        count = math.prod(shape)
        if not (type(begin) is int and type(end) is int and 0 <= begin <= end <= len(buffer)
                and end - begin == 4 * count):
            raise ModelFileError(path, "tensor '%s': data_offsets [%s, %s] do not hold shape %s"
                                 % (name, begin, end, shape))
        records.append((begin, name, shape, buffer[begin:end]))
    records.sort(key=lambda r: r[0])  # file order: by offset
    tensors = []
    for _, name, shape, raw in records:
        if sys.byteorder != "little":
            raw = struct.pack("=%df" % (len(raw) // 4), *struct.unpack("<%df" % (len(raw) // 4), raw))
        t = torch.frombuffer(bytearray(raw), dtype=torch.float32) if raw else torch.zeros(0)
        tensors.append((name, t.reshape(shape)))
    return tensors, metadata


def safetensors_bytes(tensors, metadata):
    """The bytes AttnLab writes for [(name, tensor)] and a metadata dict, byte for byte:
    compact JSON, metadata first with its keys sorted, the header padded with spaces to 8."""
    header = {"__metadata__": {k: metadata[k] for k in sorted(metadata)}} if metadata else {}
    chunks, offset = [], 0
    for name, t in tensors:
        t = t.detach().to(device="cpu", dtype=torch.float32).contiguous()
        raw = tensor_bytes(t)
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [offset, offset + len(raw)]}
        offset += len(raw)
        chunks.append(raw)
    text = json.dumps(header, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(chunks)


def tensor_bytes(t):
    """A float32 tensor's values as little-endian bytes."""
    if sys.byteorder == "little":
        try:
            return t.numpy().tobytes()
        except Exception:  # no NumPy
            pass
    return struct.pack("<%df" % t.numel(), *t.reshape(-1).tolist())


def write_file_atomically(path, data):
    """Writes data to path through a temporary file in the same directory, fsync and rename:
    the file is either the old one or the new one, whole."""
    path = os.fspath(path)
    directory = os.path.dirname(path) or "."
    tmp = os.path.join(directory, ".%s.tmp-%d" % (os.path.basename(path), os.getpid()))
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_safetensors(path, tensors, metadata):
    """Writes [(name, tensor)] and string metadata as AttnLab does, atomically."""
    write_file_atomically(path, safetensors_bytes(tensors, metadata))


# ---------------------------------------------------------------------------------------
# The configuration (core/base/lm/LmConfig.cpp): the checkpoint's "config" metadata.

class LmConfig:
    """layers, heads, d_model, feed_forward, context, dropout, attention_only, norm ("pre" or
    "none"), tied, positions ("learned" or "sinusoidal"), objective ("causal" or "masked"),
    vocabulary."""

    KEYS = ("layers", "heads", "d_model", "feed_forward", "context", "dropout", "attention_only", "norm",
            "tied", "positions", "objective", "vocabulary")
    CHOICES = {"norm": ("pre", "none"), "positions": ("learned", "sinusoidal"), "objective": ("causal", "masked")}

    def __init__(self, values):
        for key in self.KEYS:
            setattr(self, key, values[key])

    @classmethod
    def from_json(cls, text):
        """Raises ValueError naming what is wrong."""
        try:
            j = json.loads(text)
        except ValueError:
            raise ValueError("invalid JSON") from None
        if not isinstance(j, dict):
            raise ValueError("not a JSON object")
        if j.get("task") != TASK or j.get("architecture") != "gpt":
            raise ValueError("task %r, architecture %r: not a language model's"
                             % (j.get("task"), j.get("architecture")))
        missing = [k for k in cls.KEYS if k not in j]
        if missing:
            raise ValueError("'%s' is missing" % missing[0])
        for key, allowed in cls.CHOICES.items():
            if j[key] not in allowed:
                raise ValueError("'%s' is %r, not one of %s" % (key, j[key], ", ".join(allowed)))
        for key in ("layers", "heads", "d_model", "feed_forward", "context", "vocabulary"):
            if type(j[key]) is not int or j[key] < 0:
                raise ValueError("'%s' is not a count" % key)
        for key in ("attention_only", "tied"):
            if type(j[key]) is not bool:
                raise ValueError("'%s' is not true or false" % key)
        if j["heads"] < 1 or j["d_model"] % j["heads"] != 0:
            raise ValueError("%d heads do not divide d_model %d" % (j["heads"], j["d_model"]))
        return cls(j)

    def __repr__(self):
        return "LmConfig(%s)" % ", ".join("%s=%r" % (k, getattr(self, k)) for k in self.KEYS)


# ---------------------------------------------------------------------------------------
# The tokenizer (core/base/lm/LmTokens.h): the checkpoint's "tokenizer" metadata,
# {"kind", "tokens": [token of id 0, 1, ...], "merges" (bpe, gpt2)}.
#
#   chars  every Unicode code point is a token
#   words  the text between runs of ASCII spaces, tabs and line feeds
#   bpe    GPT-2's byte-level BPE with merges learned from the text; pieces cut with ASCII
#          classes (every byte from 0x80 up counts as a letter)
#   gpt2   GPT-2's own tokenizer (its 50,257 tokens and 50,000 merges), pieces cut with
#          GPT-2's pattern and Unicode's classes
#
# Ids 0-3 are <pad>, <bos>, <unk>, <mask> (gpt2: <|endoftext|> is both <pad> and <bos>, and
# there is no <unk> or <mask>). A text never produces a special token; a token the list
# does not hold is <unk> (chars, words; bpe and gpt2 have a token for every byte).

SPECIALS = ("<pad>", "<bos>", "<unk>", "<mask>")
GPT2_END_OF_TEXT = "<|endoftext|>"


def bytes_to_unicode():
    """GPT-2's table (encoder.py): the character each byte is shown as in a bpe token. The
    printable bytes are themselves; the others, in order, are U+0100, U+0101, ... (a space is
    'Ġ', a line feed 'Ċ')."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    table, extra = {}, 0
    for b in range(256):
        if b in printable:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return table


BYTE_TO_CHAR = bytes_to_unicode()
CHAR_TO_BYTE = {c: b for b, c in BYTE_TO_CHAR.items()}

# The classes the pre-tokenization cuts by.
OTHER, LETTER, NUMBER, SPACE = 0, 1, 2, 3


def ascii_class(byte):
    """bpe's class of one byte of UTF-8."""
    if byte >= 0x80 or 0x41 <= byte <= 0x5A or 0x61 <= byte <= 0x7A:
        return LETTER
    if 0x30 <= byte <= 0x39:
        return NUMBER
    if byte in (0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D):
        return SPACE
    return OTHER


# Unicode's White_Space property: what \s matches in Python's `regex` module, GPT-2's.
WHITE_SPACE = frozenset(list(range(0x09, 0x0E)) + [0x20, 0x85, 0xA0, 0x1680] + list(range(0x2000, 0x200B))
                        + [0x2028, 0x2029, 0x202F, 0x205F, 0x3000])


@lru_cache(maxsize=65536)
def unicode_class(cp):
    """gpt2's class of a code point: \\p{L}, \\p{N}, \\s or other, as AttnLab's table (Unicode
    17.0, core/base/lm/LmUnicodeTable.inc). Python's unicodedata knows most of it; the code
    points Unicode assigned after its version (14.0 in Python 3.11) are listed below."""
    if cp in WHITE_SPACE:
        return SPACE
    category = unicodedata.category(chr(cp))
    if category[0] == "L":
        return LETTER
    if category[0] == "N":
        return NUMBER
    if category == "Cn":  # unassigned in this Python's Unicode
        for ranges, cls in ((LATER_LETTERS, LETTER), (LATER_NUMBERS, NUMBER)):
            if any(first <= cp <= last for first, last in ranges):
                return cls
    return OTHER


def piece_length(units, classes, pos):
    """The length of the piece that starts at units[pos]: GPT-2's pattern
        's|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+
    over units (bytes for bpe, code points for gpt2) and their classes."""
    n = len(units)
    # 1. Contractions.
    if units[pos] == ord("'") and pos + 1 < n:
        c = chr(units[pos + 1])
        if c in "stmd":
            return 2
        if pos + 2 < n and c + chr(units[pos + 2]) in ("re", "ve", "ll"):
            return 3
    # 2-4. An optional space, then a run of letters, of numbers or of others.
    start = pos + 1 if units[pos] == 0x20 and pos + 1 < n and classes[pos + 1] != SPACE else pos
    run = classes[start]
    if run != SPACE:
        end = start + 1
        while end < n and classes[end] == run:
            end += 1
        return end - pos
    # 5-6. White space: the whole run at the end of the text, else the run but its last
    # character (which starts the next piece).
    end = pos + 1
    while end < n and classes[end] == SPACE:
        end += 1
    if end == n or end - pos == 1:
        return end - pos
    return end - pos - 1


class Tokenizer:
    """Text to ids and back, as AttnLab's LmTokenizer."""

    def __init__(self, kind, tokens, merges=()):
        self.kind = kind
        self.tokens = list(tokens)                          # index = id
        self.index = {t: i for i, t in enumerate(self.tokens)}
        if kind == "gpt2":
            end = self.index[GPT2_END_OF_TEXT]
            self.pad, self.bos, self.unk, self.mask = end, end, None, None
        else:
            self.pad, self.bos, self.unk, self.mask = 0, 1, 2, 3
        # bpe, gpt2: each byte's token, and (left id, right id) -> (rank, merged id).
        self.byte_ids = [self.index[BYTE_TO_CHAR[b]] for b in range(256)] if kind in ("bpe", "gpt2") else []
        self.ranks = {}
        for rank, (left, right) in enumerate(merges):
            pair = (self.index[left], self.index[right])
            self.ranks.setdefault(pair, (rank, self.index[left + right]))
        self.cache = {}

    @classmethod
    def from_json(cls, text):
        """Raises ValueError naming what is wrong."""
        j = json.loads(text)
        kind, tokens = j["kind"], j["tokens"]
        if kind not in ("chars", "words", "bpe", "gpt2"):
            raise ValueError("unknown kind %r" % kind)
        if kind != "gpt2" and tuple(tokens[:4]) != SPECIALS:
            raise ValueError("the tokens do not start with %s" % ", ".join(SPECIALS))
        merges = ()
        if kind == "bpe":
            merges = [tuple(m) for m in j["merges"]]
        elif kind == "gpt2":
            merges = [tuple(line.split(" ", 1)) for line in j["merges"].split("\n") if line]
        try:
            return cls(kind, tokens, merges)
        except KeyError as e:
            raise ValueError("%s is not a token" % e) from None

    def __len__(self):
        return len(self.tokens)

    def token(self, i):
        return self.tokens[i] if 0 <= i < len(self.tokens) else "<unk>"

    def is_special(self, i):
        return i in (self.pad, self.bos, self.unk, self.mask)

    # -- text to ids
    def encode(self, text):
        """The ids of the text's tokens (no <bos>)."""
        if self.kind == "chars":
            return [self.index.get(c, self.unk) for c in text]
        if self.kind == "words":
            return [self.index.get(w, self.unk) for w in re.split("[ \t\n]+", text) if w]
        ids = []
        for piece in self.pieces(text):
            if piece not in self.cache:
                self.cache[piece] = self.bpe(piece)
            ids.extend(self.cache[piece])
        return ids

    def pieces(self, text):
        """The pre-tokenization: the text cut into pieces (bytes); no token spans two."""
        if self.kind == "bpe":
            units = text.encode("utf-8")
            classes = [ascii_class(b) for b in units]
            piece = lambda a, b: units[a:b]  # noqa: E731
        else:
            units = [ord(c) for c in text]
            classes = [unicode_class(cp) for cp in units]
            piece = lambda a, b: text[a:b].encode("utf-8")  # noqa: E731
        pos, out = 0, []
        while pos < len(units):
            length = piece_length(units, classes, pos)
            out.append(piece(pos, pos + length))
            pos += length
        return out

    def bpe(self, piece):
        """GPT-2's bpe(): the piece's bytes as tokens; then, while some adjacent pair has a
        merge, the pair of the earliest merge is merged everywhere, left to right."""
        ids = [self.byte_ids[b] for b in piece]
        while len(ids) > 1:
            ranked = [self.ranks.get(pair) for pair in zip(ids, ids[1:])]
            best = min((r for r in ranked if r is not None), default=None)
            if best is None:
                break
            merged, i = [], 0
            while i < len(ids):
                if i + 1 < len(ids) and ranked[i] == best:
                    merged.append(best[1])
                    i += 2
                else:
                    merged.append(ids[i])
                    i += 1
            ids = merged
        return ids

    # -- ids to text
    def decode(self, ids):
        """The text of the ids: words joined by spaces, characters concatenated, bpe and gpt2
        tokens as their bytes (bytes that are not UTF-8, as in a cut generation, as U+FFFD)."""
        if self.kind == "words":
            return " ".join(self.token(i) for i in ids)
        if self.kind == "chars":
            return "".join(self.token(i) for i in ids)
        return b"".join(self.token_bytes(i) for i in ids).decode("utf-8", "replace")

    def token_bytes(self, i):
        token = self.token(i)
        if all(c in CHAR_TO_BYTE for c in token):
            return bytes(CHAR_TO_BYTE[c] for c in token)
        return token.encode("utf-8")  # a token outside the byte table stands for its own text


# ---------------------------------------------------------------------------------------
# The network (core/engine/lm/LmNet.cpp, core/engine/nn/networks/MultiHeadAttention.cpp).

def sinusoidal_positions(positions, d):
    """Vaswani et al.'s table [positions, d]: sin in the even columns, cos in the odd ones."""
    pe = torch.zeros(positions, d)
    pos = torch.arange(positions, dtype=torch.float32).unsqueeze(1)
    div = torch.exp(torch.arange(0, d, 2, dtype=torch.float32) * (-math.log(10000.0) / d))
    pe[:, 0::2] = torch.sin(pos * div)
    pe[:, 1::2] = torch.cos(pos * div[:d // 2])
    return pe


class MultiHeadAttention(nn.Module):
    """Multi-head scaled dot-product self-attention, every head's weights returned."""

    def __init__(self, d_model, heads, dropout):
        super().__init__()
        self.heads, self.head_dim, self.p = heads, d_model // heads, dropout
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, causal):
        """x [B, T, D] -> (output [B, T, D], weights [B, H, T, T])."""
        B, T, D = x.shape
        split = lambda y: y.reshape(B, T, self.heads, self.head_dim).transpose(1, 2)  # noqa: E731
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))             # [B, H, T, dk]
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim)   # [B, H, T, T]
        if causal:  # a query sees its own position and the earlier ones
            future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
            scores = scores.masked_fill(future, float("-inf"))
        weights = torch.softmax(scores, -1)
        heads = torch.matmul(F.dropout(weights, self.p, self.training), v)          # [B, H, T, dk]
        return self.out(heads.transpose(1, 2).reshape(B, T, D)), weights


class Block(nn.Module):
    """x + Attention(LN1(x)), then x + MLP(LN2(x)) unless attention-only."""

    def __init__(self, c):
        super().__init__()
        self.p = c.dropout
        pre = c.norm == "pre"
        # Registered in LmNet.cpp's order: the parameters' names and order are the file's.
        self.norm1 = nn.LayerNorm(c.d_model) if pre else None
        self.attention = MultiHeadAttention(c.d_model, c.heads, c.dropout)
        self.norm2 = nn.LayerNorm(c.d_model) if pre and not c.attention_only else None
        self.ff1 = None if c.attention_only else nn.Linear(c.d_model, c.feed_forward)
        self.ff2 = None if c.attention_only else nn.Linear(c.feed_forward, c.d_model)

    def forward(self, x, causal):
        a, weights = self.attention(self.norm1(x) if self.norm1 is not None else x, causal)
        x = x + F.dropout(a, self.p, self.training)
        if self.ff1 is not None:
            h = self.norm2(x) if self.norm2 is not None else x
            x = x + F.dropout(self.ff2(F.gelu(self.ff1(h), approximate="tanh")), self.p, self.training)  # gelu_new
        return x, weights


class LanguageModel(nn.Module):
    """AttnLab's language model: the network (this module's parameters are the checkpoint's
    tensors), its config and tokenizer, and the checkpoint's metadata (kept as read, so
    save() writes what load() read)."""

    def __init__(self, config, tokenizer, metadata=None, tensor_names=None):
        super().__init__()
        c = self.config = config
        self.tokenizer = tokenizer
        self.metadata = dict(metadata or {})
        self.cut = 0  # tokens the last text encoded lost to the context
        self.tokens = nn.Embedding(c.vocabulary, c.d_model)
        if c.positions == "learned":
            self.positions = nn.Embedding(c.context, c.d_model)
        else:
            self.positions = None
            self.register_buffer("sinusoid", sinusoidal_positions(c.context, c.d_model), persistent=False)
        for layer in range(c.layers):
            self.add_module("block%d" % layer, Block(c))
        self.final_norm = nn.LayerNorm(c.d_model) if c.norm == "pre" else None
        self.unembed = None if c.tied else nn.Linear(c.d_model, c.vocabulary, bias=False)
        self.tensor_names = list(tensor_names or [name for name, _ in self.named_parameters()])

    def blocks(self):
        return [getattr(self, "block%d" % layer) for layer in range(self.config.layers)]

    @property
    def causal(self):
        return self.config.objective == "causal"

    # -- text
    def encode(self, text):
        """<bos> and the text's ids, as AttnLab reads a text: a text longer than the context
        keeps <bos> and its most recent tokens (self.cut says how many were left out)."""
        ids = [self.tokenizer.bos] + self.tokenizer.encode(text)
        return self._cut(ids)

    def _cut(self, ids):
        ids = list(ids)
        if not ids or ids[0] != self.tokenizer.bos:
            ids.insert(0, self.tokenizer.bos)
        self.cut = max(0, len(ids) - self.config.context)
        return ids[:1] + ids[1 + self.cut:]

    def decode(self, ids):
        return self.tokenizer.decode(ids)

    # -- the network
    def forward(self, ids, attention=False):
        """ids: a LongTensor [B, T] (T at most the context) or one list of ids -> the logits
        [B, T, V]; with attention=True, (logits, [weights [B, H, T, T] per layer])."""
        if not torch.is_tensor(ids):
            ids = torch.tensor([list(ids)], dtype=torch.long)
        ids = ids.to(self.tokens.weight.device)
        T = ids.size(1)
        if T > self.config.context:
            raise ValueError("a sequence of %d tokens is longer than the context (%d)" % (T, self.config.context))
        position = self.positions.weight[:T] if self.positions is not None else self.sinusoid[:T]
        x = F.dropout(self.tokens(ids) + position.unsqueeze(0), self.config.dropout, self.training)
        weights = []
        for block in self.blocks():
            x, w = block(x, self.causal)
            weights.append(w)
        if self.final_norm is not None:
            x = self.final_norm(x)
        logits = self.unembed(x) if self.unembed is not None else torch.matmul(x, self.tokens.weight.t())
        return (logits, weights) if attention else logits

    # -- reading and generating, as attnlab-cli
    def _top(self, logprobs, count):
        """The count most probable tokens of a row of log-probabilities (ties: lower id)."""
        values, order = torch.sort(logprobs.double(), descending=True, stable=True)
        return [{"id": int(i), "token": self.tokenizer.token(int(i)), "logprob": float(v)}
                for v, i in zip(values[:count].tolist(), order[:count].tolist())]

    @torch.no_grad()
    def attend(self, text, top=10):
        """What ``attnlab-cli attend --model M --text TEXT --json`` prints, as a dict: "ids" and
        "tokens" (<bos> first), "attention" [layer][head][query][key], "next" (the `top` most
        probable next tokens: "id", "token", "logprob"; a masked model instead has "masked":
        each <mask>'s "position" and "top"), and "cut". text may also be a list of ids (with
        or without <bos>), which can hold <mask>. The CLI rounds logprobs to 4 decimals."""
        ids = self._cut(text) if isinstance(text, (list, tuple)) else self.encode(text)
        was_training = self.training
        self.eval()
        try:
            logits, weights = self(ids, attention=True)
        finally:
            self.train(was_training)
        logprobs = torch.log_softmax(logits[0].float(), -1)
        result = {"ids": ids, "tokens": [self.tokenizer.token(i) for i in ids],
                  "attention": [w[0].tolist() for w in weights]}
        if self.causal:
            result["next"] = self._top(logprobs[-1], top)
        else:
            result["masked"] = [{"position": p, "top": self._top(logprobs[p], top)}
                                for p, i in enumerate(ids) if i == self.tokenizer.mask]
        result["cut"] = self.cut
        return result

    @torch.no_grad()
    def generate(self, prompt, max_new_tokens=20):
        """Greedy continuation, what ``attnlab-cli generate --model M --prompt TEXT
        --max-new-tokens N --json`` prints: "prompt_ids" (<bos> and the prompt, cut to the
        context), "ids" and "tokens" (the new ones), "text" (they decoded), "steps" (each
        step's 10 most probable tokens), "attention" (each step: the last layer's weights of
        the query that chose the token, the heads' mean) and "cut". Never <pad>, <bos> or
        <mask>: they are set to -inf before choosing."""
        if not self.causal:
            raise ValueError("a masked language model does not continue a text: put <mask> in it and read "
                             "the fills (attend)")
        C = self.config.context
        ids = self.encode(prompt)
        result = {"prompt_ids": list(ids), "ids": [], "tokens": [], "steps": [], "attention": [], "cut": self.cut}
        was_training = self.training
        self.eval()
        try:
            for _ in range(max_new_tokens):
                window = ids if len(ids) <= C else ids[:1] + ids[len(ids) - (C - 1):]  # <bos> and the latest
                logits, weights = self(window, attention=True)
                row = torch.log_softmax(logits[0, -1].float(), -1).double()
                for special in (self.tokenizer.pad, self.tokenizer.bos, self.tokenizer.mask):
                    if special is not None:
                        row[special] = float("-inf")
                top = self._top(row, 10)
                result["steps"].append(top)
                result["attention"].append(weights[-1][0].mean(0)[-1].tolist())
                ids.append(top[0]["id"])
                result["ids"].append(top[0]["id"])
        finally:
            self.train(was_training)
        result["tokens"] = [self.tokenizer.token(i) for i in result["ids"]]
        result["text"] = self.tokenizer.decode(result["ids"])
        return result

    # -- training
    def batch(self, texts, rng=random):
        """(inputs, targets) [B, T], as AttnLab's trainer makes them (LmBatches.cpp). Causal:
        <bos> and a document's first T - 1 tokens predict its first T (a document is cut to
        the context). Masked: <bos> and the document (cut to context - 1), 15% of its tokens
        (at least one, drawn with rng) replaced by <mask>, the hidden ones the targets.
        Padding and the positions not predicted are <pad> in the targets."""
        pad, bos, mask = self.tokenizer.pad, self.tokenizer.bos, self.tokenizer.mask
        limit = self.config.context - (0 if self.causal else 1)
        docs = [self.tokenizer.encode(t)[:limit] for t in texts]
        T = max([len(d) for d in docs] + [1]) + (0 if self.causal else 1)
        inputs = torch.full((len(docs), T), pad, dtype=torch.long)
        targets = torch.full((len(docs), T), pad, dtype=torch.long)
        for b, d in enumerate(docs):
            if self.causal:
                row = [bos] + d
                inputs[b, :min(len(row), T)] = torch.tensor(row[:T], dtype=torch.long)
                targets[b, :len(d)] = torch.tensor(d, dtype=torch.long)
                continue
            inputs[b, :len(d) + 1] = torch.tensor([bos] + d, dtype=torch.long)
            hidden = max(1, math.floor(0.15 * len(d) + 0.5)) if d else 0  # 15%, rounded half up
            for p in rng.sample(range(1, len(d) + 1), hidden):
                targets[b, p] = inputs[b, p]
                inputs[b, p] = mask
        return inputs, targets

    def loss(self, texts, rng=random):
        """AttnLab's training loss on these documents (a list of strings): the mean
        cross-entropy over the predicted tokens."""
        inputs, targets = self.batch(texts, rng)
        logits = self(inputs)
        targets = targets.to(logits.device)
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1),
                               ignore_index=self.tokenizer.pad)

    # -- checkpoints
    def save(self, path, extra_metadata=None):
        """Writes an AttnLab checkpoint (atomically): the metadata load() read plus
        extra_metadata (strings), the tensors in the file's order as float32. A model loaded
        and saved unchanged is the same file, byte for byte."""
        params = dict(self.named_parameters())
        names = [n for n in self.tensor_names if n in params] + [n for n in params if n not in self.tensor_names]
        metadata = dict(self.metadata)
        metadata.update({"format": "attnlab", "format_version": str(FORMAT_VERSION), "task": TASK})
        for key, value in (extra_metadata or {}).items():
            metadata[str(key)] = str(value)
        write_safetensors(path, [(n, params[n]) for n in names], metadata)


def load(path):
    """Loads a language model written by AttnLab (or by save()); raises ModelFileError
    ('FILE: reason') for a file that is not one."""
    path = os.fspath(path)
    tensors, metadata = read_safetensors(path)
    if metadata.get("format_version") != str(FORMAT_VERSION):
        raise ModelFileError(path, "not an AttnLab model of format version %d" % FORMAT_VERSION)
    if metadata.get("task") != TASK:
        raise ModelFileError(path, "holds a '%s' model, not a language model" % metadata.get("task", "translate"))
    try:
        config = LmConfig.from_json(metadata.get("config", ""))
    except ValueError as e:
        raise ModelFileError(path, "metadata 'config': %s" % e) from None
    try:
        tokenizer = Tokenizer.from_json(metadata.get("tokenizer", ""))
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise ModelFileError(path, "metadata 'tokenizer': %s" % e) from None
    if len(tokenizer) != config.vocabulary:
        raise ModelFileError(path, "the config's vocabulary (%d) is not the tokenizer's (%d)"
                             % (config.vocabulary, len(tokenizer)))
    model = LanguageModel(config, tokenizer, metadata, [name for name, _ in tensors])
    params = dict(model.named_parameters())
    stored = dict(tensors)
    for name, p in params.items():
        if name not in stored:
            raise ModelFileError(path, "tensor '%s' is missing" % name)
        if list(stored[name].shape) != list(p.shape):
            raise ModelFileError(path, "tensor '%s' has shape %s but the config needs %s"
                                 % (name, list(stored[name].shape), list(p.shape)))
    if len(stored) != len(params):
        raise ModelFileError(path, "the file has %d tensors, the config needs %d" % (len(stored), len(params)))
    with torch.no_grad():
        for name, p in params.items():
            if not bool(torch.isfinite(stored[name]).all()):
                raise ModelFileError(path, "tensor '%s' contains NaN or infinity" % name)
            p.copy_(stored[name])
    model.eval()
    return model


# Code points Unicode assigned after 14.0 (Python 3.11's unicodedata) that AttnLab's table
# (Unicode 17.0) counts as letters or numbers; a newer Python knows some of them itself.
LATER_LETTERS = (
    (0x88F, 0x88F), (0xC5C, 0xC5C), (0xCDC, 0xCDC), (0x1C89, 0x1C8A), (0xA7CB, 0xA7CF),
    (0xA7D2, 0xA7D2), (0xA7D4, 0xA7D4), (0xA7DA, 0xA7DC), (0xA7F1, 0xA7F1), (0x105C0, 0x105F3),
    (0x10940, 0x10959), (0x10D4A, 0x10D65), (0x10D6F, 0x10D85), (0x10EC2, 0x10EC7),
    (0x1123F, 0x11240), (0x11380, 0x11389), (0x1138B, 0x1138B), (0x1138E, 0x1138E),
    (0x11390, 0x113B5), (0x113B7, 0x113B7), (0x113D1, 0x113D1), (0x113D3, 0x113D3),
    (0x11BC0, 0x11BE0), (0x11DB0, 0x11DDB), (0x11F02, 0x11F02), (0x11F04, 0x11F10),
    (0x11F12, 0x11F33), (0x1342F, 0x1342F), (0x13441, 0x13446), (0x13460, 0x143FA),
    (0x16100, 0x1611D), (0x16D40, 0x16D6C), (0x16EA0, 0x16EB8), (0x16EBB, 0x16ED3),
    (0x16FF2, 0x16FF3), (0x187F8, 0x187FF), (0x18CFF, 0x18CFF), (0x18D09, 0x18D1E),
    (0x18D80, 0x18DF2), (0x1B132, 0x1B132), (0x1B155, 0x1B155), (0x1DF25, 0x1DF2A),
    (0x1E030, 0x1E06D), (0x1E4D0, 0x1E4EB), (0x1E5D0, 0x1E5ED), (0x1E5F0, 0x1E5F0),
    (0x1E6C0, 0x1E6DE), (0x1E6E0, 0x1E6E2), (0x1E6E4, 0x1E6E5), (0x1E6E7, 0x1E6ED),
    (0x1E6F0, 0x1E6F4), (0x1E6FE, 0x1E6FF), (0x2B739, 0x2B73F), (0x2CEA2, 0x2CEAD),
    (0x2EBF0, 0x2EE5D), (0x31350, 0x33479),
)
LATER_NUMBERS = (
    (0x10D40, 0x10D49), (0x116D0, 0x116E3), (0x11BF0, 0x11BF9), (0x11DE0, 0x11DE9),
    (0x11F50, 0x11F59), (0x16130, 0x16139), (0x16D70, 0x16D79), (0x16FF4, 0x16FF6),
    (0x1CCF0, 0x1CCF9), (0x1D2C0, 0x1D2D3), (0x1E4F0, 0x1E4F9), (0x1E5F1, 0x1E5FA),
)


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: python3 attnlab_lm.py MODEL.safetensors PROMPT [NEW_TOKENS]: the greedy continuation")
    lm = load(sys.argv[1])
    print(lm.generate(sys.argv[2], int(sys.argv[3]) if len(sys.argv) == 4 else 20)["text"])
