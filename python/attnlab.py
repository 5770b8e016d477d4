"""AttnLab models in PyTorch: the networks, tokenizer and checkpoints of AttnLab.

Exported by ``attnlab-cli export --model M.safetensors --pytorch DIR`` together with
``train.py``. Needs only PyTorch and the Python standard library (no ``safetensors``
package: the file format is read and written here).

    import attnlab
    model = attnlab.load("zh.safetensors")
    result = model.translate("tom chases jerry", beam=4)
    print(result["output_tokens"], result["attention"]["cross"][0][0])
    model.save("copy.safetensors")          # an AttnLab checkpoint again

``translate`` returns what ``attnlab-cli translate --json`` prints for the sentence:
``source_tokens`` (as the model saw them, ``<unk>`` for unknown words, then ``</s>``),
``output_tokens`` (without ``</s>``), ``log_probability`` and ``attention``: kind
(``cross``; for a Transformer also ``encoder`` and ``decoder``) -> [layer][head][row][column].

The networks compute what AttnLab's C++ engine computes (GRU encoder-decoder with
none/dot/general/scaled-dot/additive/local-m/local-p attention, or a post-norm
Transformer), with the same parameter names, so ``model.net.state_dict()`` holds the
tensors of the file. Greedy and beam search follow AttnLab's decoding: the same length
limit (2 x source length + 10, at most max_length - 1), float32 hypothesis scores, ties
broken towards the lower (hypothesis, token) index, finished hypotheses compared by
log-probability / (tokens + 1).
"""

import json
import math
import os
import struct
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

__all__ = [
    "ModelFileError", "ModelConfig", "TokenizerOptions", "Tokenizer", "Vocabulary", "Model",
    "GruSeq2Seq", "TransformerSeq2Seq", "load", "read_safetensors", "write_safetensors",
    "write_file_atomically", "beam_search",
]

FORMAT_VERSION = 1
PAD, BOS, EOS, UNK = 0, 1, 2, 3
SPECIAL_TOKENS = ("<pad>", "<s>", "</s>", "<unk>")
MAX_HEADER_BYTES = 16 * 1024 * 1024
ARCHITECTURES = ("gru", "transformer")
ATTENTION_KINDS = ("none", "dot", "general", "scaled-dot", "additive", "local-m", "local-p")
QUERY_ORDERS = ("before", "after")
DROPOUT_PLACEMENTS = ("embeddings", "attention", "both")


class ModelFileError(Exception):
    """A file that is not a usable AttnLab checkpoint; the message is 'FILE: reason'."""

    def __init__(self, path, reason):
        super().__init__("%s: %s" % (path, reason))
        self.path = path
        self.reason = reason


# ---------------------------------------------------------------------------------------
# safetensors: 8-byte little-endian header length N, N bytes of JSON, then raw data.

_DTYPES = {"F32": (torch.float32, 4), "F64": (torch.float64, 8), "F16": (torch.float16, 2),
           "BF16": (torch.bfloat16, 2)}


class TensorRecord:
    """One tensor of a safetensors file: name, shape, dtype name and its raw bytes."""

    __slots__ = ("name", "shape", "dtype", "data")

    def __init__(self, name, shape, dtype, data):
        self.name, self.shape, self.dtype, self.data = name, list(shape), dtype, data

    def tensor(self):
        """The values as a float32 tensor (a copy)."""
        torch_dtype, _ = _DTYPES[self.dtype]
        count = 1
        for d in self.shape:
            count *= d
        if count == 0:
            return torch.zeros(self.shape, dtype=torch.float32)
        t = torch.frombuffer(bytearray(self.data), dtype=torch_dtype)
        if sys.byteorder != "little":  # the file is little-endian
            t = torch.frombuffer(bytearray(_swap_bytes(self.data, _DTYPES[self.dtype][1])), dtype=torch_dtype)
        return t.reshape(self.shape).to(torch.float32)


def _swap_bytes(data, width):
    out = bytearray(len(data))
    for i in range(0, len(data), width):
        out[i:i + width] = data[i:i + width][::-1]
    return bytes(out)


def _printable(s, limit=80):
    out = "".join("\\x%02x" % ord(c) if ord(c) < 0x20 or ord(c) == 0x7F else c for c in s[:limit])
    return "'" + out + ("..." if len(s) > limit else "") + "'"


def _is_uint(v):
    return type(v) is int and v >= 0


class _JsonObject(list):
    """A JSON object as its (key, value) pairs in file order."""


def parse_safetensors(data, name):
    """Parses safetensors bytes: (tensors in buffer order, metadata dict). Raises ModelFileError."""
    if not data:
        raise ModelFileError(name, "file is empty, not a safetensors file")
    if len(data) < 8:
        raise ModelFileError(name, "file is too short (%d bytes) for a safetensors header" % len(data))
    (n,) = struct.unpack("<Q", data[:8])
    if n > len(data) - 8:
        raise ModelFileError(name, "header length %d exceeds file size (%d bytes)" % (n, len(data)))
    if n > MAX_HEADER_BYTES:
        raise ModelFileError(name, "header length %d exceeds the limit of %d bytes" % (n, MAX_HEADER_BYTES))

    def pairs(items):
        keys = [k for k, _ in items]
        if len(set(keys)) != len(keys):
            raise ValueError("duplicate key")
        return _JsonObject(items)  # keeps the header's order

    try:
        header = json.loads(bytes(data[8:8 + n]).decode("utf-8"), object_pairs_hook=pairs,
                            parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ModelFileError(name, "invalid header JSON") from None
    if not isinstance(header, _JsonObject):
        raise ModelFileError(name, "header is not a JSON object")
    buffer_start = 8 + n
    buffer_size = len(data) - buffer_start
    metadata = {}
    entries = []
    for key, value in header:
        if key == "__metadata__":
            if not isinstance(value, _JsonObject):
                raise ModelFileError(name, "__metadata__ is not a JSON object")
            for k, v in value:
                if not isinstance(v, str):
                    raise ModelFileError(name, "__metadata__ value %s is not a string" % _printable(k))
                metadata[k] = v
            continue
        tensor = "tensor " + _printable(key)

        def fail(reason):
            raise ModelFileError(name, tensor + ": " + reason)

        if not isinstance(value, _JsonObject):
            fail("entry is not a JSON object")
        fields = dict(value)
        dtype = fields.get("dtype")
        if dtype is None:
            fail("missing dtype")
        if not isinstance(dtype, str):
            fail("dtype is not a string")
        if dtype not in _DTYPES:
            fail("unsupported dtype %s" % _printable(dtype))
        shape = fields.get("shape")
        if shape is None:
            fail("missing shape")
        if not isinstance(shape, list) or not all(_is_uint(d) for d in shape):
            fail("shape must hold non-negative integers")
        count = 1
        for d in shape:
            count *= d
        offsets = fields.get("data_offsets")
        if (not isinstance(offsets, list) or len(offsets) != 2 or not _is_uint(offsets[0])
                or not _is_uint(offsets[1])):
            fail("data_offsets is not [begin, end] with non-negative integers")
        begin, end = offsets
        if begin > end or end > buffer_size:
            fail("data_offsets [%d, %d] outside the %d-byte data buffer" % (begin, end, buffer_size))
        width = _DTYPES[dtype][1]
        if end - begin != count * width:
            fail("data_offsets span %d bytes but shape %s needs %d" % (end - begin, shape, count * width))
        entries.append((begin, end, key, shape, dtype))
    entries.sort(key=lambda e: e[0])  # stable: empty tensors keep their header order
    previous = None
    for e in entries:
        if e[0] == e[1]:
            continue
        if previous is not None and e[0] < previous[1]:
            raise ModelFileError(name, "tensors %s and %s overlap in the data buffer"
                                 % (_printable(previous[2]), _printable(e[2])))
        previous = e
    tensors = [TensorRecord(key, shape, dtype, bytes(data[buffer_start + b:buffer_start + e]))
               for b, e, key, shape, dtype in entries]
    return tensors, metadata


def read_safetensors(path):
    """Reads a .safetensors file: (list of TensorRecord in file order, metadata dict)."""
    path = os.fspath(path)
    if not path or not os.path.exists(path):
        raise ModelFileError(path, "no such file")
    if os.path.isdir(path):
        raise ModelFileError(path, "is a directory")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ModelFileError(path, "cannot read: %s" % (e.strerror or e)) from None
    return parse_safetensors(data, path)


def _tensor_bytes(t):
    t = t.detach().to(device="cpu", dtype=torch.float32).contiguous()
    if sys.byteorder == "little":
        try:
            return t.numpy().tobytes()
        except Exception:  # no NumPy: byte by byte
            return bytes(t.reshape(-1).view(torch.uint8).tolist())
    return struct.pack("<%df" % t.numel(), *t.reshape(-1).tolist())


def safetensors_bytes(tensors, metadata):
    """The bytes AttnLab writes for these tensors ((name, float tensor) in order) and metadata,
    byte for byte: compact JSON header (metadata first, keys sorted), padded to 8 bytes."""
    header = {}
    if metadata:
        header["__metadata__"] = {k: metadata[k] for k in sorted(metadata)}
    chunks = []
    offset = 0
    seen = set()
    for name, t in tensors:
        if name == "__metadata__":
            raise ValueError("tensor '__metadata__': the name is reserved")
        if name in seen:
            raise ValueError("tensor %s: the name is used twice" % _printable(name))
        seen.add(name)
        raw = _tensor_bytes(t)
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [offset, offset + len(raw)]}
        offset += len(raw)
        chunks.append(raw)
    text = json.dumps(header, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(chunks)


_temp_counter = [0]


def write_file_atomically(path, data):
    """Writes data to path through a temporary file in the same directory, fsync and rename:
    the file is either the old one or the new one, whole. Keeps an existing file's mode."""
    path = os.fspath(path)
    directory, name = os.path.split(path)
    if not name or name in (".", ".."):
        raise OSError("%s: is a directory" % path)
    fd, tmp = -1, None
    for _ in range(100):
        _temp_counter[0] += 1
        tmp = os.path.join(directory, ".%s.tmp-%d-%d" % (name, os.getpid(), _temp_counter[0]))
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
            break
        except FileExistsError:
            continue
    if fd < 0:
        raise OSError("%s: cannot create a temporary file next to it" % path)
    try:
        try:
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        except OSError:
            pass
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # make the rename durable
        dfd = os.open(directory or ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def write_safetensors(path, tensors, metadata):
    """Writes (name, tensor) pairs and string metadata as AttnLab does, atomically."""
    write_file_atomically(path, safetensors_bytes(tensors, metadata))


# ---------------------------------------------------------------------------------------
# Configuration (core/base/translation/ModelConfig.cpp).

class ModelConfig:
    """The model's configuration, as the checkpoint's 'config' metadata holds it."""

    KEYS = ("architecture", "attention", "hidden", "embedding", "layers", "bidirectional", "query", "heads",
            "feed_forward", "dropout", "dropout_on", "local_window", "max_length", "source_vocab", "target_vocab")

    def __init__(self, **values):
        self.architecture = "gru"
        self.attention = "additive"
        self.hidden = 128
        self.embedding = 0
        self.layers = 1
        self.bidirectional = False
        self.query = "before"
        self.heads = 4
        self.feed_forward = 512
        self.dropout = 0.1
        self.dropout_on = "both"
        self.local_window = 3
        self.max_length = 256
        self.source_vocab = 0
        self.target_vocab = 0
        for k, v in values.items():
            if k not in self.KEYS:
                raise TypeError("unknown config key %r" % k)
            setattr(self, k, v)

    @property
    def embedding_size(self):
        return self.embedding if self.embedding > 0 else self.hidden

    def validate(self):
        """'' if valid, else a one-line reason (as validate() in ModelConfig.cpp)."""
        def out_of_range(flag, lo, hi, v):
            return "%s must be between %d and %d, got %d" % (flag, lo, hi, v)
        if self.architecture not in ARCHITECTURES:
            return "unknown architecture"
        if self.attention not in ATTENTION_KINDS:
            return "unknown attention"
        for flag, value, lo, hi in (("--hidden", self.hidden, 1, 4096), ("--embedding", self.embedding, 0, 4096),
                                    ("--layers", self.layers, 1, 16), ("--heads", self.heads, 1, 64),
                                    ("--ff", self.feed_forward, 1, 16384)):
            if not lo <= value <= hi:
                return out_of_range(flag, lo, hi, value)
        if not 0.0 <= self.dropout < 1.0:
            return "--dropout must be at least 0 and below 1, got %r" % self.dropout
        if not 1 <= self.local_window <= 100:
            return out_of_range("--window", 1, 100, self.local_window)
        if not 2 <= self.max_length <= 8192:
            return out_of_range("--max-len", 2, 8192, self.max_length)
        if self.architecture == "transformer" and self.hidden % self.heads != 0:
            return "--heads %d does not divide --hidden %d" % (self.heads, self.hidden)
        for what, size in (("source", self.source_vocab), ("target", self.target_vocab)):
            if not 5 <= size <= 1000000:
                return ("%s vocabulary size must be between 5 (4 special tokens and a word) and 1000000, got %d"
                        % (what, size))
        return ""

    @classmethod
    def from_json(cls, text):
        """Parses the 'config' metadata; raises ValueError with a one-line reason."""
        def malformed(reason):
            raise ValueError("model config: " + reason)
        try:
            j = json.loads(text)
        except ValueError:
            malformed("invalid JSON")
        if not isinstance(j, dict):
            malformed("not a JSON object")

        def member(key):
            if key not in j:
                malformed("missing key '%s'" % key)
            return j[key]

        def integer(key, lo=-(1 << 31), hi=(1 << 31) - 1):
            v = member(key)
            if type(v) is not int:
                malformed("'%s' must be an integer" % key)
            if not lo <= v <= hi:
                malformed("'%s' is out of range" % key)
            return v

        def string(key):
            v = member(key)
            if not isinstance(v, str):
                malformed("'%s' must be a string" % key)
            return v

        c = cls()
        c.architecture = string("architecture")
        if c.architecture not in ARCHITECTURES:
            malformed("unknown architecture '%s' (expected one of: %s)"
                      % (c.architecture[:40], ", ".join(ARCHITECTURES)))
        c.attention = string("attention")
        if c.attention not in ATTENTION_KINDS:
            malformed("unknown attention '%s' (expected one of: %s)"
                      % (c.attention[:40], ", ".join(ATTENTION_KINDS)))
        c.hidden = integer("hidden")
        c.embedding = integer("embedding")
        c.layers = integer("layers")
        if not isinstance(member("bidirectional"), bool):
            malformed("'bidirectional' must be true or false")
        c.bidirectional = j["bidirectional"]
        # Optional: checkpoints from before these choices existed query before, drop out on both.
        c.query = string("query") if "query" in j else "before"
        if c.query not in QUERY_ORDERS:
            malformed("unknown query order '%s' (expected one of: %s)" % (c.query[:40], ", ".join(QUERY_ORDERS)))
        c.dropout_on = string("dropout_on") if "dropout_on" in j else "both"
        if c.dropout_on not in DROPOUT_PLACEMENTS:
            malformed("unknown dropout placement '%s' (expected one of: %s)"
                      % (c.dropout_on[:40], ", ".join(DROPOUT_PLACEMENTS)))
        c.heads = integer("heads")
        c.feed_forward = integer("feed_forward")
        dropout = member("dropout")
        if isinstance(dropout, bool) or not isinstance(dropout, (int, float)):
            malformed("'dropout' must be a number")
        c.dropout = struct.unpack("<f", struct.pack("<f", float(dropout)))[0]  # a float, as in C++
        c.local_window = integer("local_window")
        c.max_length = integer("max_length")
        c.source_vocab = integer("source_vocab", -(1 << 63), (1 << 63) - 1)
        c.target_vocab = integer("target_vocab", -(1 << 63), (1 << 63) - 1)
        reason = c.validate()
        if reason:
            raise ValueError(reason)
        return c

    def to_dict(self):
        return {k: getattr(self, k) for k in self.KEYS}

    def __repr__(self):
        return "ModelConfig(%s)" % ", ".join("%s=%r" % kv for kv in self.to_dict().items())


def parameter_count(c):
    """Weights the config describes (core/base/translation/ModelSize.cpp)."""
    def linear(i, o, bias=True):
        return i * o + (o if bias else 0)
    H, Vs, Vt, L = c.hidden, c.source_vocab, c.target_vocab, c.layers
    if c.architecture == "transformer":
        d, ff = H, c.feed_forward
        mha = 4 * linear(d, d)
        feed = linear(d, ff) + linear(ff, d)
        return Vs * d + Vt * d + L * ((mha + feed + 4 * d) + (2 * mha + feed + 6 * d)) + linear(d, Vt)
    E = c.embedding_size
    dirs = 2 if c.bidirectional else 1
    n = Vs * E + Vt * E
    for l in range(L):
        n += dirs * (3 * H * (E if l == 0 else H * dirs) + 3 * H * H + 6 * H)
    if c.bidirectional:
        n += 2 * linear(2 * H, H)
    n += {"general": H * H, "local-m": H * H, "local-p": 2 * H * H + H,
          "additive": linear(H, H) + H * H + H}.get(c.attention, 0)
    n += linear(E, 3 * H)                                                  # layer 0's embedding input
    n += 3 * H * H if c.query == "before" else linear(2 * H, H)            # its context input, or W_c
    n += (L - 1) * linear(H, 3 * H) + L * linear(H, 3 * H)
    return n + linear(H, Vt)


# ---------------------------------------------------------------------------------------
# Tokenizer (core/base/Tokenizer.cpp), code point for code point.

class TokenizerOptions:
    def __init__(self, lowercase=True, split_punctuation=True, split_cjk_characters=True):
        self.lowercase = lowercase
        self.split_punctuation = split_punctuation
        self.split_cjk_characters = split_cjk_characters

    def to_json(self):
        return json.dumps({"lowercase": self.lowercase, "split_punctuation": self.split_punctuation,
                           "split_cjk_characters": self.split_cjk_characters}, separators=(",", ":"))

    def __repr__(self):
        return ("TokenizerOptions(lowercase=%r, split_punctuation=%r, split_cjk_characters=%r)"
                % (self.lowercase, self.split_punctuation, self.split_cjk_characters))


_REPLACEMENT = 0xFFFD


def decode_utf8(data):
    """Code points of UTF-8 bytes; an invalid or truncated sequence yields U+FFFD and
    advances one byte (as decodeUtf8 in Tokenizer.cpp, not as Python's decoder)."""
    try:
        return [ord(c) for c in data.decode("utf-8", "strict")]  # strict = the same valid set
    except UnicodeDecodeError:
        pass
    cps = []
    n, pos = len(data), 0
    while pos < n:
        b0 = data[pos]
        if b0 < 0x80:
            cps.append(b0)
            pos += 1
            continue
        lo, hi = 0x80, 0xBF
        if 0xC2 <= b0 <= 0xDF:
            length, cp = 2, b0 & 0x1F
        elif 0xE0 <= b0 <= 0xEF:
            length, cp = 3, b0 & 0x0F
            if b0 == 0xE0:
                lo = 0xA0
            if b0 == 0xED:
                hi = 0x9F
        elif 0xF0 <= b0 <= 0xF4:
            length, cp = 4, b0 & 0x07
            if b0 == 0xF0:
                lo = 0x90
            if b0 == 0xF4:
                hi = 0x8F
        else:
            cps.append(_REPLACEMENT)
            pos += 1
            continue
        ok = n - pos >= length
        if ok:
            for i in range(1, length):
                b = data[pos + i]
                if (b < lo or b > hi) if i == 1 else (b < 0x80 or b > 0xBF):
                    ok = False
                    break
                cp = (cp << 6) | (b & 0x3F)
        if ok:
            cps.append(cp)
            pos += length
        else:
            cps.append(_REPLACEMENT)
            pos += 1
    return cps


def _in(cp, lo, hi):
    return lo <= cp <= hi


def is_whitespace(cp):
    return (_in(cp, 0x09, 0x0D) or cp in (0x20, 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF)
            or _in(cp, 0x2000, 0x200B))


def _is_ignorable(cp):
    return (_in(cp, 0x200E, 0x200F) or _in(cp, 0x202A, 0x202E) or _in(cp, 0x2060, 0x206F) or cp == 0xAD
            or _in(cp, 0x00, 0x08) or _in(cp, 0x0E, 0x1F) or _in(cp, 0x7F, 0x84) or _in(cp, 0x86, 0x9F))


def is_punctuation(cp):
    if cp < 0x80:
        return _in(cp, 0x21, 0x2F) or _in(cp, 0x3A, 0x40) or _in(cp, 0x5B, 0x60) or _in(cp, 0x7B, 0x7E)
    if cp in (0xA1, 0xA7, 0xAB, 0xB6, 0xB7, 0xBB, 0xBF):
        return True
    return (_in(cp, 0x2010, 0x2027) or _in(cp, 0x2030, 0x205E) or _in(cp, 0x3001, 0x3004)
            or _in(cp, 0x3008, 0x3020) or cp in (0x3030, 0x303D, 0x30FB) or _in(cp, 0xFF01, 0xFF0F)
            or _in(cp, 0xFF1A, 0xFF20) or _in(cp, 0xFF3B, 0xFF40) or _in(cp, 0xFF5B, 0xFF65))


def is_cjk(cp):
    return (_in(cp, 0x4E00, 0x9FFF) or _in(cp, 0x3400, 0x4DBF) or _in(cp, 0x20000, 0x3134F)
            or _in(cp, 0xF900, 0xFAFF) or _in(cp, 0x2E80, 0x2FDF) or _in(cp, 0x3005, 0x3007)
            or _in(cp, 0x3040, 0x309F) or _in(cp, 0x30A0, 0x30FA) or _in(cp, 0x30FC, 0x30FF)
            or _in(cp, 0x31F0, 0x31FF) or _in(cp, 0xFF66, 0xFF9F) or _in(cp, 0xAC00, 0xD7AF)
            or _in(cp, 0x1100, 0x11FF) or _in(cp, 0x3130, 0x318F) or _in(cp, 0xA960, 0xA97F)
            or _in(cp, 0xD7B0, 0xD7FF))


def _is_apostrophe(cp):
    return cp == 0x27 or cp == 0x2019


def _is_letter(cp):
    if cp < 0x80:
        return _in(cp, 0x61, 0x7A) or _in(cp, 0x41, 0x5A)
    if cp < 0xC0:
        return cp in (0xAA, 0xB5, 0xBA)
    return (cp not in (0xD7, 0xF7, _REPLACEMENT) and not is_punctuation(cp) and not is_whitespace(cp)
            and not _is_ignorable(cp) and not is_cjk(cp))


def _to_lower(cp):
    if cp < 0x80:
        return cp + 0x20 if _in(cp, 0x41, 0x5A) else cp
    if cp < 0x100:
        return cp + 0x20 if _in(cp, 0xC0, 0xDE) and cp != 0xD7 else cp
    if cp < 0x180:
        if cp == 0x130:
            return 0x69
        if cp == 0x178:
            return 0xFF
        if _in(cp, 0x100, 0x137) or _in(cp, 0x14A, 0x177):
            return cp + 1 if cp % 2 == 0 else cp
        if _in(cp, 0x139, 0x148) or _in(cp, 0x179, 0x17E):
            return cp + 1 if cp % 2 == 1 else cp
        return cp
    if _in(cp, 0x386, 0x3AB):
        if _in(cp, 0x391, 0x3AB) and cp != 0x3A2:
            return cp + 0x20
        if cp == 0x386:
            return 0x3AC
        if _in(cp, 0x388, 0x38A):
            return cp + 0x25
        if cp == 0x38C:
            return 0x3CC
        if _in(cp, 0x38E, 0x38F):
            return cp + 0x3F
        return cp
    if _in(cp, 0x400, 0x4FF):
        if cp <= 0x40F:
            return cp + 0x50
        if cp <= 0x42F:
            return cp + 0x20
        if _in(cp, 0x460, 0x481) or _in(cp, 0x48A, 0x4BF) or _in(cp, 0x4D0, 0x4FF):
            return cp + 1 if cp % 2 == 0 else cp
        if cp == 0x4C0:
            return 0x4CF
        if _in(cp, 0x4C1, 0x4CE):
            return cp + 1 if cp % 2 == 1 else cp
    return cp


def _scalar(cp):
    return _REPLACEMENT if cp > 0x10FFFF or _in(cp, 0xD800, 0xDFFF) else cp


def _as_bytes(text):
    if isinstance(text, (bytes, bytearray, memoryview)):
        return bytes(text)
    try:
        return text.encode("utf-8", "surrogateescape")  # gives back the bytes of sys.argv
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


class Tokenizer:
    """AttnLab's tokenizer: lowercasing, punctuation split off (an apostrophe between two
    letters stays inside the word), Han/Kana/Hangul one token per character (or per run
    without split_cjk_characters), invisible format characters dropped."""

    def __init__(self, options=None):
        self.options = options or TokenizerOptions()

    def tokenize(self, text):
        """Tokens of text (str or UTF-8 bytes; invalid bytes become U+FFFD)."""
        cps = decode_utf8(_as_bytes(text))
        o = self.options
        tokens = []
        word = []
        cjk_run = False
        n = len(cps)
        for i, cp in enumerate(cps):
            if 0x61 <= cp <= 0x7A or 0x30 <= cp <= 0x39:
                if cjk_run:
                    tokens.append("".join(word))
                    word, cjk_run = [], False
                word.append(chr(cp))
            elif is_whitespace(cp):
                if word:
                    tokens.append("".join(word))
                word, cjk_run = [], False
            elif _is_ignorable(cp):
                continue
            elif is_cjk(cp):
                if o.split_cjk_characters:
                    if word:
                        tokens.append("".join(word))
                    tokens.append(chr(cp))
                    word, cjk_run = [], False
                else:
                    if not cjk_run:
                        if word:
                            tokens.append("".join(word))
                        word = []
                    word.append(chr(cp))
                    cjk_run = True
            elif o.split_punctuation and is_punctuation(cp):
                in_word = (_is_apostrophe(cp) and i > 0 and i + 1 < n and word
                           and _is_letter(cps[i - 1]) and _is_letter(cps[i + 1]))
                if in_word:
                    word.append(chr(cp))
                else:
                    if word:
                        tokens.append("".join(word))
                    tokens.append(chr(_scalar(cp)))
                    word, cjk_run = [], False
            else:
                if cjk_run:
                    if word:
                        tokens.append("".join(word))
                    word, cjk_run = [], False
                word.append(chr(_scalar(_to_lower(cp) if o.lowercase else cp)))
        if word:
            tokens.append("".join(word))
        return tokens


# ---------------------------------------------------------------------------------------
# Vocabulary (core/base/Vocabulary.cpp).

class Vocabulary:
    """Token <-> id with <pad> <s> </s> <unk> at ids 0..3; unknown tokens map to <unk>."""

    def __init__(self, tokens=SPECIAL_TOKENS):
        tokens = list(tokens)
        if len(tokens) < 4:
            raise ValueError("vocabulary has %d entries; it needs at least the 4 special tokens" % len(tokens))
        for i, special in enumerate(SPECIAL_TOKENS):
            if tokens[i] != special:
                raise ValueError("vocabulary entry %d is '%s', expected '%s'" % (i, tokens[i], special))
        self.tokens = tokens
        self.index = {t: i for i, t in enumerate(SPECIAL_TOKENS)}
        for i in range(4, len(tokens)):
            t = tokens[i]
            if not isinstance(t, str) or not t:
                raise ValueError("vocabulary entry %d is empty" % i)
            if t in self.index:
                raise ValueError("vocabulary entry %d '%s' duplicates entry %d" % (i, t, self.index[t]))
            self.index[t] = i

    def __len__(self):
        return len(self.tokens)

    def id(self, token):
        return self.index.get(token, UNK)

    def token(self, i):
        return self.tokens[i] if 0 <= i < len(self.tokens) else self.tokens[UNK]

    def encode(self, tokens):
        return [self.index.get(t, UNK) for t in tokens]

    def decode(self, ids):
        return [self.token(int(i)) for i in ids]


# ---------------------------------------------------------------------------------------
# The networks (core/engine/nn). Parameter names and order are the checkpoint's.

_NEG_INF = float("-inf")


class GruAttention(nn.Module):
    """score functions of the GRU decoder's attention (GruAttention.cpp)."""

    def __init__(self, kind, hidden, window):
        super().__init__()
        self.kind, self.hidden, self.window = kind, hidden, window
        if kind in ("general", "local-m"):
            self.key_proj = nn.Linear(hidden, hidden, bias=False)
        elif kind == "local-p":
            self.key_proj = nn.Linear(hidden, hidden, bias=False)
            self.center_proj = nn.Linear(hidden, hidden, bias=False)
            self.center_v = nn.Linear(hidden, 1, bias=False)
        elif kind == "additive":
            self.key_proj = nn.Linear(hidden, hidden, bias=True)
            self.query_proj = nn.Linear(hidden, hidden, bias=False)
            self.v = nn.Linear(hidden, 1, bias=False)

    def projected(self, keys):
        return self.key_proj(keys) if hasattr(self, "key_proj") else None

    def weights(self, query, enc, step):
        """query [B, H], step t -> weights [B, S] (rows sum to 1)."""
        kind = self.kind
        if kind in ("dot", "scaled-dot"):
            raw = torch.bmm(enc["keys"], query.unsqueeze(2)).squeeze(2)
        elif kind in ("general", "local-m", "local-p"):
            raw = torch.bmm(enc["projected"], query.unsqueeze(2)).squeeze(2)
        else:  # additive: v . tanh(U h + b + W s)
            q = self.query_proj(query)
            raw = torch.matmul(torch.tanh(enc["projected"] + q.unsqueeze(1)), self.v.weight.view(self.hidden))
        scores = raw / math.sqrt(self.hidden) if kind == "scaled-dot" else raw
        mask = enc["pad_mask"] if enc["padded"] else None
        if kind in ("local-m", "local-p"):
            S = enc["keys"].size(1)
            lengths = enc["lengths"]
            last = (lengths - 1).clamp_min(0)
            if kind == "local-m":
                center = torch.full_like(last, float(step)).minimum(last)
            else:
                g = self.center_v(torch.tanh(self.center_proj(query))).squeeze(1)
                center = (lengths * torch.sigmoid(g)).minimum(last)
            positions = torch.arange(S, dtype=enc["keys"].dtype, device=enc["keys"].device).unsqueeze(0)
            distance = positions - center.unsqueeze(1)
            outside = distance.abs() > float(self.window)
            mask = outside if mask is None else mask.logical_or(outside)
            if kind == "local-p":
                sigma = self.window / 2.0
                scores = scores + (-distance.pow(2) / (2.0 * sigma * sigma))
        if mask is not None:
            scores = scores.masked_fill(mask, _NEG_INF)
        return torch.softmax(scores, 1)


class GruSeq2Seq(nn.Module):
    """GRU encoder-decoder (GruSeq2Seq.cpp). Each step, in the config's query order:
    before (Bahdanau): c_t = attention(s_{t-1}, h), s_t = GRU([emb(y_{t-1}); c_t], s_{t-1}), logits = W_o s_t;
    after (Luong): s_t = GRU(emb(y_{t-1}), s_{t-1}), c_t = attention(s_t, h), logits = W_o tanh(W_c [s_t; c_t])."""

    def __init__(self, c):
        super().__init__()
        self.config = c
        H, E, L = c.hidden, c.embedding_size, c.layers
        self.p_embeddings = c.dropout if c.dropout_on != "attention" else 0.0
        self.p_attention = c.dropout if c.dropout_on != "embeddings" else 0.0
        self.src_embedding = nn.Embedding(c.source_vocab, E, padding_idx=0)
        self.tgt_embedding = nn.Embedding(c.target_vocab, E, padding_idx=0)
        self.encoder = nn.GRU(E, H, num_layers=L, batch_first=True, bidirectional=c.bidirectional,
                              dropout=self.p_embeddings if L > 1 else 0.0)
        if c.bidirectional:
            self.bridge_outputs = nn.Linear(2 * H, H)
            self.bridge_hidden = nn.Linear(2 * H, H)
        if c.attention != "none":
            self.attention = GruAttention(c.attention, H, c.local_window)
        self.dec_emb_input = nn.Linear(E, 3 * H, bias=True)
        if c.query == "before":
            self.dec_ctx_input = nn.Linear(H, 3 * H, bias=False)
        else:
            self.dec_combine = nn.Linear(2 * H, H, bias=True)
        for l in range(L):
            if l > 0:
                setattr(self, "dec_input_%d" % l, nn.Linear(H, 3 * H, bias=True))
            setattr(self, "dec_hidden_%d" % l, nn.Linear(H, 3 * H, bias=True))
        self.output = nn.Linear(H, c.target_vocab)

    def drop(self, x):
        """Dropout on embeddings and between layers, where the config places it."""
        return F.dropout(x, self.p_embeddings, self.training) if self.p_embeddings > 0 else x

    def attend(self, enc, query, t):
        """(context [B, H], weights [B, S] or None) for query [B, H] at step t."""
        attention = getattr(self, "attention", None)
        if attention is None:
            return enc["context"], None
        w = attention.weights(query, enc, t)
        wd = F.dropout(w, self.p_attention, self.training) if self.p_attention > 0 else w
        return torch.bmm(wd.unsqueeze(1), enc["keys"]).squeeze(1), w

    def encode(self, src, src_len):
        c = self.config
        B, S = src.shape
        L, H = c.layers, c.hidden
        emb = self.drop(self.src_embedding(src))
        pad_mask = torch.arange(S, device=src.device).unsqueeze(0) >= src_len.to(src.device).unsqueeze(1)
        packed = nn.utils.rnn.pack_padded_sequence(emb, src_len.cpu(), batch_first=True, enforce_sorted=False)
        out, h = self.encoder(packed)
        out = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=S)[0]
        if c.bidirectional:
            out = self.bridge_outputs(out)
            h = h.view(L, 2, B, H).permute(0, 2, 1, 3).reshape(L, B, 2 * H)
            h = torch.tanh(self.bridge_hidden(h))
        attention = getattr(self, "attention", None)
        return {
            "keys": out,
            "projected": attention.projected(out) if attention is not None else None,
            "pad_mask": pad_mask,
            "padded": bool(pad_mask.any()),
            "lengths": src_len.to(device=src.device, dtype=torch.float32),
            "hidden": h.contiguous(),
            "context": h[L - 1],
        }

    def decode_step(self, enc, emb_proj, hidden, t):
        """One step given layer 0's embedding projection [B, 3H]; returns (what the output
        layer reads: the top state, or tanh(W_c [s_t; c_t]) after; new hidden [L, B, H];
        attention weights [B, S] or None)."""
        L = self.config.layers
        after = self.config.query == "after"
        gi = emb_proj
        if not after:
            context, w = self.attend(enc, hidden[L - 1], t)
            gi = gi + self.dec_ctx_input(context)
        states = []
        for l in range(L):
            h = hidden[l]
            if l > 0:
                gi = getattr(self, "dec_input_%d" % l)(self.drop(states[-1]))
            gh = getattr(self, "dec_hidden_%d" % l)(h)
            ir, iz, inn = gi.chunk(3, 1)
            hr, hz, hn = gh.chunk(3, 1)
            r = torch.sigmoid(ir + hr)
            z = torch.sigmoid(iz + hz)
            n = torch.tanh(inn + r * hn)
            states.append(n + z * (h - n))
        top = states[-1]
        if after:
            context, w = self.attend(enc, top, t)
            top = torch.tanh(self.dec_combine(torch.cat([top, context], 1)))
        return top, torch.stack(states, 0), w

    def forward(self, src, src_len, tgt_in, capture=None):
        """Teacher-forced logits [B, T, V]; with capture (a dict) also 'cross' [B, 1, 1, T, S]."""
        enc = self.encode(src, src_len)
        emb_proj_all = self.dec_emb_input(self.drop(self.tgt_embedding(tgt_in)))
        hidden = enc["hidden"]
        tops, weights = [], []
        for t in range(tgt_in.size(1)):
            top, hidden, w = self.decode_step(enc, emb_proj_all[:, t], hidden, t)
            tops.append(top)
            if w is not None:
                weights.append(w)
        if capture is not None and weights:
            capture["cross"] = torch.stack(weights, 1).unsqueeze(1).unsqueeze(1)
        return self.output(torch.stack(tops, 1))

    # Incremental decoding (Seq2SeqNet's start / step / reorder).
    def start(self, src, src_len, capture=None):
        enc = self.encode(src, src_len)
        return {"enc": enc, "hidden": enc["hidden"], "t": 0}

    def step(self, state, prev):
        """prev [B] -> (log-probabilities [B, V], {kind: weights [B, L, H, Tk]})."""
        emb_proj = self.dec_emb_input(self.drop(self.tgt_embedding(prev)))
        top, state["hidden"], w = self.decode_step(state["enc"], emb_proj, state["hidden"], state["t"])
        state["t"] += 1
        captured = {} if w is None else {"cross": w.view(w.size(0), 1, 1, w.size(1))}
        return torch.log_softmax(self.output(top), 1), captured

    def reorder(self, state, index):
        enc = state["enc"]
        for key in ("keys", "projected", "pad_mask", "lengths", "context"):
            if enc[key] is not None:
                enc[key] = enc[key].index_select(0, index)
        state["hidden"] = state["hidden"].index_select(1, index)


class MultiHeadAttention(nn.Module):
    """Multi-head scaled dot-product attention (MultiHeadAttention.cpp)."""

    def __init__(self, d_model, heads, dropout):
        super().__init__()
        self.d_model, self.heads, self.head_dim, self.p = d_model, heads, d_model // heads, dropout
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, query, memory, key_pad_mask, causal):
        """query [B, Tq, D], memory [B, Tk, D], key_pad_mask [B, Tk] (True = padding) or None.
        Returns (output [B, Tq, D], weights [B, H, Tq, Tk])."""
        B, Tq, _ = query.shape
        Tk = memory.size(1)
        H, dk = self.heads, self.head_dim
        q = self.q(query).reshape(B, Tq, H, dk).transpose(1, 2)
        k = self.k(memory).reshape(B, Tk, H, dk).transpose(1, 2)
        v = self.v(memory).reshape(B, Tk, H, dk).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(dk)
        if key_pad_mask is not None:
            scores = scores.masked_fill(key_pad_mask.view(key_pad_mask.size(0), 1, 1, Tk), _NEG_INF)
        if causal:
            scores = scores.masked_fill(torch.ones(Tq, Tk, dtype=torch.bool, device=query.device).triu(1), _NEG_INF)
        w = torch.softmax(scores, -1)
        if not torch.is_grad_enabled():  # a row with every key masked: weights 0, as AttnLab
            w = torch.nan_to_num(w, nan=0.0)
        wd = F.dropout(w, self.p, self.training) if self.p > 0 else w
        heads = torch.matmul(wd, v).transpose(1, 2).reshape(B, Tq, self.d_model)
        return self.out(heads), w


class EncoderLayer(nn.Module):
    def __init__(self, d, heads, ff, dropout):
        super().__init__()
        self.p = dropout
        self.self_attn = MultiHeadAttention(d, heads, dropout)
        self.ff1 = nn.Linear(d, ff)
        self.ff2 = nn.Linear(ff, d)
        self.norm1 = nn.LayerNorm(d)
        self.norm2 = nn.LayerNorm(d)

    def drop(self, x):
        return F.dropout(x, self.p, self.training) if self.p > 0 else x

    def forward(self, x, pad_mask):
        a, w = self.self_attn(x, x, pad_mask, False)
        h = self.norm1(x + self.drop(a))
        return self.norm2(h + self.drop(self.ff2(self.drop(torch.relu(self.ff1(h)))))), w


class DecoderLayer(nn.Module):
    def __init__(self, d, heads, ff, dropout):
        super().__init__()
        self.p = dropout
        self.self_attn = MultiHeadAttention(d, heads, dropout)
        self.cross_attn = MultiHeadAttention(d, heads, dropout)
        self.ff1 = nn.Linear(d, ff)
        self.ff2 = nn.Linear(ff, d)
        self.norm1 = nn.LayerNorm(d)
        self.norm2 = nn.LayerNorm(d)
        self.norm3 = nn.LayerNorm(d)

    def drop(self, x):
        return F.dropout(x, self.p, self.training) if self.p > 0 else x

    def forward(self, y, tgt_pad_mask, memory, src_pad_mask):
        a, sw = self.self_attn(y, y, tgt_pad_mask, True)
        h = self.norm1(y + self.drop(a))
        a, cw = self.cross_attn(h, memory, src_pad_mask, False)
        h = self.norm2(h + self.drop(a))
        return self.norm3(h + self.drop(self.ff2(self.drop(torch.relu(self.ff1(h)))))), sw, cw


def sinusoidal_positions(positions, d):
    """PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(...), [positions, d]."""
    pe = torch.zeros(positions, d)
    pos = torch.arange(positions, dtype=torch.float32).unsqueeze(1)
    div = torch.exp(torch.arange(0, d, 2, dtype=torch.float32) * (-math.log(10000.0) / d))
    pe[:, 0::2] = torch.sin(pos * div)
    pe[:, 1::2] = torch.cos(pos * div[: d // 2])
    return pe


class TransformerSeq2Seq(nn.Module):
    """Post-norm Transformer (TransformerSeq2Seq.cpp): embeddings x sqrt(d_model) + sinusoidal
    positions, ReLU feed-forward, LayerNorm eps 1e-5, padding masks on keys, causal mask on
    decoder self-attention."""

    def __init__(self, c):
        super().__init__()
        self.config = c
        d = c.hidden
        self.p = c.dropout
        self.src_embedding = nn.Embedding(c.source_vocab, d, padding_idx=0)
        self.tgt_embedding = nn.Embedding(c.target_vocab, d, padding_idx=0)
        for l in range(c.layers):
            setattr(self, "encoder_%d" % l, EncoderLayer(d, c.heads, c.feed_forward, c.dropout))
            setattr(self, "decoder_%d" % l, DecoderLayer(d, c.heads, c.feed_forward, c.dropout))
        self.output = nn.Linear(d, c.target_vocab)
        # Deterministic from the config: a buffer that follows .to(device), not saved.
        self.register_buffer("positions", sinusoidal_positions(c.max_length, d), persistent=False)

    def layers(self, kind):
        return [getattr(self, "%s_%d" % (kind, l)) for l in range(self.config.layers)]

    def embed(self, table, tokens):
        T = tokens.size(1)
        if T > self.positions.size(0):
            raise ValueError("sequence of %d tokens exceeds the model's maximum length %d"
                             % (T, self.positions.size(0)))
        x = table(tokens) * math.sqrt(self.config.hidden) + self.positions[:T]
        return F.dropout(x, self.p, self.training) if self.p > 0 else x

    def encode(self, src, src_pad_mask, weights=None):
        x = self.embed(self.src_embedding, src)
        for layer in self.layers("encoder"):
            x, w = layer(x, src_pad_mask)
            if weights is not None:
                weights.append(w)
        return x

    def decode(self, tgt_in, memory, src_pad_mask, self_weights=None, cross_weights=None):
        y = self.embed(self.tgt_embedding, tgt_in)
        tgt_pad_mask = tgt_in.eq(PAD)
        if not bool(tgt_pad_mask.any()):
            tgt_pad_mask = None
        for layer in self.layers("decoder"):
            y, sw, cw = layer(y, tgt_pad_mask, memory, src_pad_mask)
            if self_weights is not None:
                self_weights.append(sw)
                cross_weights.append(cw)
        return self.output(y)

    def forward(self, src, src_len, tgt_in, capture=None):
        """Logits [B, T, V]; with capture (a dict) also every kind [B, layers, heads, Tq, Tk]."""
        src_pad_mask = src.eq(PAD)
        enc, self_w, cross_w = ([], [], []) if capture is not None else (None, None, None)
        memory = self.encode(src, src_pad_mask, enc)
        logits = self.decode(tgt_in, memory, src_pad_mask, self_w, cross_w)
        if capture is not None:
            capture["encoder"] = torch.stack(enc, 1)
            capture["decoder"] = torch.stack(self_w, 1)
            capture["cross"] = torch.stack(cross_w, 1)
        return logits

    # Incremental decoding: the decoder runs over the whole prefix at every step (the
    # numbers of AttnLab's cached step, which computes the same as forward over the prefix).
    def start(self, src, src_len, capture=None):
        src_pad_mask = src.eq(PAD)
        enc = []
        memory = self.encode(src, src_pad_mask, enc)
        if capture is not None:
            capture["encoder"] = torch.stack(enc, 1)
        return {"memory": memory, "src_pad_mask": src_pad_mask if bool(src_pad_mask.any()) else None,
                "prefix": torch.empty(src.size(0), 0, dtype=torch.long, device=src.device)}

    def step(self, state, prev):
        prefix = torch.cat([state["prefix"], prev.view(-1, 1).to(state["prefix"])], 1)
        state["prefix"] = prefix
        B, t = prefix.size(0), prefix.size(1)
        memory = state["memory"].expand(B, -1, -1)
        mask = state["src_pad_mask"]
        if mask is not None:
            mask = mask.expand(B, -1)
        self_w, cross_w = [], []
        logits = self.decode(prefix, memory, mask, self_w, cross_w)
        captured = {"decoder": torch.stack([w[:, :, t - 1] for w in self_w], 1),   # [B, L, H, t]
                    "cross": torch.stack([w[:, :, t - 1] for w in cross_w], 1)}   # [B, L, H, S]
        return torch.log_softmax(logits[:, t - 1], 1), captured

    def reorder(self, state, index):
        state["prefix"] = state["prefix"].index_select(0, index)
        if state["memory"].size(0) > 1:
            state["memory"] = state["memory"].index_select(0, index)
            if state["src_pad_mask"] is not None:
                state["src_pad_mask"] = state["src_pad_mask"].index_select(0, index)


def make_network(config):
    return (TransformerSeq2Seq if config.architecture == "transformer" else GruSeq2Seq)(config)


# ---------------------------------------------------------------------------------------
# Decoding (core/engine/translation/Decoding.cpp).

def beam_search(net, src, src_len, beam, max_steps, capture=True):
    """Beam search for one sentence (src [1, S]); beam 1 is greedy. Returns (token ids without
    </s>, log-probability, {kind: [1, L, H, T, Tk]} or None)."""
    captured = {} if capture else None
    state = net.start(src, src_len, captured)
    steps = []
    alive = [([], 0.0, [])]  # (tokens, score, rows: its row in each step's capture)
    finished = []
    device = src.device
    prev = torch.full((1,), BOS, dtype=torch.long, device=device)
    t = 0
    while t < max_steps and alive:
        logp, step_capture = net.step(state, prev)
        if capture:
            steps.append(step_capture)
        V = logp.size(1)
        # Scores summed in float32, as AttnLab does; the k best, ties to the lower index.
        base = torch.tensor([h[1] for h in alive], dtype=torch.float32, device=device)
        scores = (base.unsqueeze(1) + logp.to(torch.float32)).reshape(-1)
        k = min(beam, scores.numel())
        top = torch.sort(scores, descending=True, stable=True).indices[:k].tolist()
        values = scores.tolist()
        next_alive, keep_rows, next_tokens = [], [], []
        for i in top:
            row, token = divmod(i, V)
            tokens, _, rows = alive[row]
            h = (list(tokens), values[i], rows + [row] if capture else [])
            if token == EOS:
                finished.append(h)
            else:
                h[0].append(token)
                next_alive.append(h)
                keep_rows.append(row)
                next_tokens.append(token)
        t += 1
        alive = next_alive
        if len(finished) >= beam:
            alive = []  # enough finished hypotheses: they alone compete, as in AttnLab
        if not alive:
            break
        if keep_rows != list(range(logp.size(0))):
            net.reorder(state, torch.tensor(keep_rows, dtype=torch.long, device=device))
        prev = torch.tensor(next_tokens, dtype=torch.long, device=device)
    finished.extend(alive)  # out of steps: unfinished hypotheses compete too
    best = None
    for h in finished:
        if best is None or h[1] / (len(h[0]) + 1) > best[1] / (len(best[0]) + 1):
            best = h
    if best is None:
        return [], 0.0, captured
    if capture:
        rows = best[2][:len(best[0])]
        T = len(rows)
        if T and steps and steps[0]:
            for kind in steps[0]:
                keys = max(steps[t][kind].size(3) for t in range(T))
                picked = []
                for t in range(T):
                    w = steps[t][kind][rows[t]]  # [L, H, Tk_t]
                    if w.size(2) < keys:
                        w = F.pad(w, (0, keys - w.size(2)))
                    picked.append(w)
                captured[kind] = torch.stack(picked, 2).unsqueeze(0)
    return best[0], best[1], captured


# ---------------------------------------------------------------------------------------
# The model: network + vocabularies + tokenizer + the checkpoint's metadata.

class Model:
    """An AttnLab model. ``net`` is the torch.nn.Module; ``metadata`` the checkpoint's
    metadata (kept verbatim, so save() writes what load() read); ``tensor_names`` the
    file's tensor order."""

    def __init__(self, config, net, source, target, tokenizer, metadata, tensor_names=None):
        self.config = config
        self.net = net
        self.source_vocab = source
        self.target_vocab = target
        self.tokenizer_options = tokenizer
        self.tokenizer = Tokenizer(tokenizer)
        self.metadata = dict(metadata)
        self.tensor_names = list(tensor_names) if tensor_names else [n for n, _ in net.named_parameters()]

    # -- text
    def tokenize(self, sentence):
        return self.tokenizer.tokenize(sentence)

    def encode_source(self, tokens):
        """Source ids (+ </s>), truncated to the model's maximum; (ids, truncated)."""
        ids = self.source_vocab.encode(tokens)
        limit = self.config.max_length - 1
        truncated = len(ids) > limit
        return ids[:limit] + [EOS], truncated

    def encode_target(self, tokens):
        return self.target_vocab.encode(tokens) + [EOS]

    def source_tokens(self, sentence):
        ids, _ = self.encode_source(self.tokenize(sentence))
        return self.source_vocab.decode(ids)

    # -- translating
    def translate(self, sentence, beam=1, max_output=0):
        """What ``attnlab-cli translate --json [--beam N] [--max-output N] SENTENCE`` prints, as
        a dict. ``model.truncated`` then says whether the sentence was longer than the model's
        maximum and cut (the CLI warns on stderr)."""
        if isinstance(beam, bool) or not isinstance(beam, int) or not 1 <= beam <= 64:
            raise ValueError("--beam must be between 1 and 64")
        if isinstance(max_output, bool) or not isinstance(max_output, int) or not 0 <= max_output <= 8192:
            raise ValueError("--max-output must be between 0 and 8192")
        words = self.tokenize(sentence)
        if not words:
            raise ValueError("the sentence is empty: type at least one word")
        ids, self.truncated = self.encode_source(words)
        max_steps = min(max_output if max_output > 0 else 2 * len(ids) + 10, self.config.max_length - 1)
        was_training = self.net.training
        self.net.eval()
        try:
            with torch.inference_mode():
                device = next(self.net.parameters()).device
                src = torch.tensor([ids], dtype=torch.long, device=device)
                src_len = torch.tensor([len(ids)], dtype=torch.long, device=device)
                out, logp, captured = beam_search(self.net, src, src_len, beam, max_steps, capture=True)
        finally:
            self.net.train(was_training)
        attention = {}
        if out:  # [1, L, H, rows, cols] -> [L][H][rows][cols]
            for kind in sorted(captured):
                attention[kind] = captured[kind][0].to(device="cpu", dtype=torch.float32).tolist()
        result = {"attention": attention, "log_probability": logp,
                  "output_tokens": self.target_vocab.decode(out), "source_tokens": self.source_vocab.decode(ids)}
        if self.config.architecture == "transformer":
            # Attention rollout of the encoder (Abnar & Zuidema 2020), as the CLI's: per layer the
            # heads' mean A, (A + I) / 2 with rows renormalised, the last layer leftmost.
            rollout = []
            if out and "encoder" in captured:
                r = None
                for a in captured["encoder"][0].to(device="cpu", dtype=torch.float64):  # [H, S, S] per layer
                    a = 0.5 * a.mean(0) + 0.5 * torch.eye(a.size(-1), dtype=torch.float64)
                    a = a / a.sum(-1, keepdim=True)
                    r = a if r is None else a @ r
                rollout = r.to(torch.float32).tolist()
            result["rollout"] = {"encoder": rollout}
        return result

    # -- checkpoints
    def save(self, path, extra_metadata=None):
        """Writes an AttnLab checkpoint (atomically): the metadata read by load() plus
        extra_metadata, the tensors in the file's order as float32."""
        params = dict(self.net.named_parameters())
        names = [n for n in self.tensor_names if n in params] + [n for n in params if n not in self.tensor_names]
        metadata = dict(self.metadata)
        metadata.update({"format": "attnlab", "format_version": str(FORMAT_VERSION)})
        for key, value in (extra_metadata or {}).items():
            metadata[str(key)] = str(value)
        write_safetensors(path, [(n, params[n]) for n in names], metadata)

    def reinitialize(self, seed=None):
        """Fresh weights (PyTorch's default initialisation, as LibTorch's) for the same
        config, vocabularies and tokenizer."""
        if seed is not None:
            torch.manual_seed(seed)
        self.net = make_network(self.config)
        return self


def _vocabulary(text, path, key):
    try:
        tokens = json.loads(text)
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise ValueError("not a list of strings")
        return Vocabulary(tokens)
    except ValueError:
        raise ModelFileError(path, "metadata '%s' is not a valid vocabulary" % key) from None


def load(path):
    """Loads an AttnLab .safetensors checkpoint, with the checks AttnLab makes; raises
    ModelFileError('FILE: reason')."""
    path = os.fspath(path)
    tensors, metadata = read_safetensors(path)

    def meta(key):
        if key not in metadata:
            raise ModelFileError(path, "not an AttnLab model: metadata '%s' is missing" % key)
        return metadata[key]

    if meta("format_version") != str(FORMAT_VERSION):
        raise ModelFileError(path, "unsupported format version %s (this module reads %d)"
                             % (meta("format_version"), FORMAT_VERSION))
    try:
        config = ModelConfig.from_json(meta("config"))
    except ValueError as e:
        raise ModelFileError(path, "bad model config: %s" % e) from None
    source = _vocabulary(meta("source_vocab"), path, "source_vocab")
    target = _vocabulary(meta("target_vocab"), path, "target_vocab")
    if len(source) != config.source_vocab or len(target) != config.target_vocab:
        raise ModelFileError(path, "vocabulary sizes disagree with the config")
    try:
        tok = json.loads(meta("tokenizer"))
        lowercase, split_punct = tok["lowercase"], tok["split_punctuation"]
        split_cjk = tok.get("split_cjk_characters", True)
        if not all(isinstance(v, bool) for v in (lowercase, split_punct, split_cjk)):
            raise TypeError
        options = TokenizerOptions(lowercase, split_punct, split_cjk)
    except (ValueError, KeyError, TypeError, AttributeError):
        raise ModelFileError(path, "metadata 'tokenizer' is malformed") from None

    stored = 0
    for t in tensors:
        count = 1
        for d in t.shape:
            count *= d
        stored += count
    expected = parameter_count(config)
    if expected != stored:
        raise ModelFileError(path, "the config describes %d weights but the file holds %d" % (expected, stored))
    net = make_network(config)
    by_name = {t.name: t for t in tensors}
    params = list(net.named_parameters())
    for name, p in params:
        r = by_name.get(name)
        if r is None:
            raise ModelFileError(path, "tensor '%s' is missing" % name)
        if r.shape != list(p.shape):
            raise ModelFileError(path, "tensor '%s' has shape %s but the config needs %s"
                                 % (name, r.shape, list(p.shape)))
    if len(tensors) != len(params):
        raise ModelFileError(path, "file has %d tensors, the config needs %d" % (len(tensors), len(params)))
    with torch.no_grad():
        for name, p in params:
            value = by_name[name].tensor()
            if not bool(torch.isfinite(value).all()):
                raise ModelFileError(path, "tensor '%s' contains NaN or infinity" % name)
            p.copy_(value)
    net.eval()
    return Model(config, net, source, target, options, metadata, [t.name for t in tensors])
